#!/bin/sh
read hello; echo "{\"type\":\"hello\",\"protocol\":\"hpcwl-sched/1\"}"; read pass; exec sleep 30
