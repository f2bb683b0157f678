#!/bin/bash
# Simulations behind the Talby chapter 7 tables (docs/validation.md, "Adaptive
# scheduling"): every log under conservative, EASY, Flex and Maui, Maui with an
# expansion-factor priority, and the adaptive schedulers against Maui.
# Usage: run.sh OUTDIR   (H: the hpcwl binary, D: the directory of the logs)
set -e
H=${H:-hpcwl}; D=${D:-/work/shared/data/swf}; O=${1:?output directory}
mkdir -p "$O"
for f in KTH-SP2-1996-2.1-cln SDSC-SP2-1998-4.2-cln SDSC-BLUE-2000-4.2-cln; do
  for s in conservative easy flex maui; do
    $H simulate $D/$f.swf.gz --scheduler $s --json > $O/$f.$s.json
  done
  $H simulate $D/$f.swf.gz --scheduler maui --param xfactor=30 --json > $O/$f.mauixf.json
  while read -r cfg; do
    n=$(echo $cfg | sed 's/--param //g; s/[ =,]/_/g')
    $H simulate $D/$f.swf.gz --scheduler $cfg --baseline maui --json > $O/$f.$n.json
  done <<'CFGS'
pbas
pbas --param metric=resp --param switch=12h
pbas --param metric=bsld --param switch=1h
pbas --param switch=30m
pbas --param switch=4h
pbas --param switch=1d
pbas --param switch=50d
pbas --param candidates=maui,flex,easy,conservative
pbas --param candidates=maui,flex,easy,conservative --param switch=30m
pbas --param candidates=maui,flex,easy,conservative --param switch=4h
pbas --param candidates=maui,flex,easy,conservative --param switch=1d
pbas --param candidates=maui,flex,easy,conservative --param switch=50d
wbas
wbas --param maf=7500
wbas --param maf=7500 --param switch=2h
wbas --param maf=750
wbas --param maf=50
wbas --param maf=500
wbas --param maf=50000
wbas --param switch=1h
wbas --param switch=4h
wbas --param switch=12h
wbas --param switch=7d
pbas-indirect
CFGS
done
