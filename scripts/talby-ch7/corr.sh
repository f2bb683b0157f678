#!/bin/bash
# Table 13 shape: monthly workload features of LOG against the Flex/Maui wait difference.
# $1 = log file name without .swf.gz; needs $1.flex.json and $1.maui.json (hpcwl simulate --json).
# Usage: (cd OUTDIR && corr.sh LOG)   (H: the hpcwl binary, D: the logs)
H=${H:-hpcwl}; D=${D:-/work/shared/data/swf}; L=$1; T=$(mktemp -d)
for k in $(jq -r '.metrics.per_month[].key' $L.maui.json); do
  y=${k%-*}; m=${k#*-}; m=$((10#$m)); if [ $m -eq 12 ]; then e="$((y+1))-01-01"; else e="$y-$(printf %02d $((m+1)))-01"; fi
  $H clean $D/$L.swf.gz --start $k-01 --end $e -o $T/month.swf > /dev/null 2>&1
  $H info $T/month.swf --json | jq -c --arg k $k '{key: $k, jobs, users,
     rl: (.offered_load * (.last_submit - .period_start) / ((.last_submit - .first_submit) | if . > 0 then . else 1 end)),
     rm: .talby.Rm, ri: .talby.Ri, pm: .talby.Pm, pi: .talby.Pi, cm: .talby.Cm, ci: .talby.Ci, am: .talby.Am, ai: .talby.Ai}'
done > $L.months.jsonl
jq -n --slurpfile f $L.flex.json --slurpfile m $L.maui.json --slurpfile x <(jq -s . $L.months.jsonl) '
  def mean: add / length;
  def pearson(a; b): (a|mean) as $ma | (b|mean) as $mb
    | ([range(0; a|length) as $i | (a[$i]-$ma)*(b[$i]-$mb)] | add)
      / ((([a[] | (.-$ma)*(.-$ma)] | add) * ([b[] | (.-$mb)*(.-$mb)] | add)) | sqrt);
  ($x[0]) as $ms
  | [ $f[0].metrics.per_month, $m[0].metrics.per_month ] as [$F, $M]
  | [range(0; $ms|length) | $F[.].wait.mean - $M[.].wait.mean] as $abs
  | [range(0; $ms|length) | ($F[.].wait.mean - $M[.].wait.mean) / ($M[.].wait.mean | if . > 0 then . else 1 end)] as $rel
  | ["jobs","rl","ujobs","rm","ri","pm","pi","cm","ci","am","ai"] as $vars
  | [ $ms[] | . + {ujobs: (.users / .jobs)} ] as $ms
  | "vars      " + ($vars | join("  ")),
    "relative  " + ([ $vars[] as $v | pearson([$ms[][$v]]; $rel) * 100 | round / 100 | tostring ] | join(" ")),
    "absolute  " + ([ $vars[] as $v | pearson([$ms[][$v]]; $abs) * 100 | round / 100 | tostring ] | join(" "))'
