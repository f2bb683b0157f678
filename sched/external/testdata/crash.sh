#!/bin/sh
read hello; echo "{\"type\":\"hello\",\"protocol\":\"hpcwl-sched/1\"}"; read pass; echo "policy failed: division by zero" >&2; exit 3
