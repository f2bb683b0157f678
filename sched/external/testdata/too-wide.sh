#!/bin/sh
read hello; echo "{\"type\":\"hello\",\"protocol\":\"hpcwl-sched/1\"}"; read pass; echo "{\"start\":[1,2]}"; cat >/dev/null
