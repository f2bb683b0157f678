#!/bin/sh
read hello; echo "{\"type\":\"hello\",\"protocol\":\"hpcwl-sched/1\"}"; read pass; echo "{\"starts\":[1]}"; cat >/dev/null
