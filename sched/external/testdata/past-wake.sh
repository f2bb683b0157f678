#!/bin/sh
read hello; echo "{\"type\":\"hello\",\"protocol\":\"hpcwl-sched/1\"}"; read pass; echo "{\"start\":[],\"wake\":0}"; cat >/dev/null
