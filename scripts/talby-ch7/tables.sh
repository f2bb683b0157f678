#!/bin/bash
# Tables 8-10 shape and the gains of Tables 11 and 14 from the files of run.sh.
# Usage: (cd OUTDIR && tables.sh LOG); MAUI=mauixf compares with Maui with an
# expansion-factor priority instead of the default Maui.
L=$1
jq -n --slurpfile c $L.conservative.json --slurpfile e $L.easy.json --slurpfile f $L.flex.json --slurpfile m $L.${MAUI:-maui}.json '
 [$c[0],$e[0],$f[0],$m[0]] as $r | ["cons","easy","flex","maui"] as $n |
 "T8 wait " + ([$r[].metrics.wait.mean|round|tostring]|join(" ")) + " | bsld " + ([$r[].metrics.bounded_slowdown.mean*10|round/10|tostring]|join(" ")),
 ( [range(0; $r[0].metrics.per_month|length)] as $ms |
   def won(f): [ $ms[] as $i | [ $r[] | .metrics.per_month[$i] | f ] | (to_entries|min_by(.value)|.key) ] as $w
     | [range(0;4) as $k | ($w|map(select(.==$k))|length)] ;
   "T9 months " + ($ms|length|tostring) + " won wait " + (won(.wait.mean)|map(tostring)|join(" ")) + " | bsld " + (won(.bounded_slowdown.mean)|map(tostring)|join(" ")),
   ( [ $ms[] as $i | {f: $r[2].metrics.per_month[$i].wait.mean, m: $r[3].metrics.per_month[$i].wait.mean} ] as $p
     | ($p|map(select(.f<.m)|(.m-.f)/.f)) as $fw | ($p|map(select(.m<=.f)|(.f-.m)/(if .m>0 then .m else 1 end))) as $mw
     | "T10 flex-won " + ($fw|length|tostring) + " avg " + ((if $fw|length > 0 then $fw|add/length*100 else 0 end)|round|tostring) + "% max " + (($fw|max // 0)*100|round|tostring)
       + "% | maui-won " + ($mw|length|tostring) + " avg " + ((if $mw|length > 0 then $mw|add/length*100 else 0 end)|round|tostring) + "% max " + (($mw|max // 0)*100|round|tostring) + "%" ) )'
for a in $L.pbas*.json $L.wbas*.json; do
  jq -r --arg n "${a#$L.}" '"gain " + ($n|rtrimstr(".json")) + " wait " + (.metrics.wait.mean|round|tostring) + " perf " + (.gains.performance*1000|round/10|tostring) + "% stab " + (.gains.stability*1000|round/10|tostring) + "% bsld " + (.metrics.bounded_slowdown.mean*10|round/10|tostring) + " | " + ((.switching.points // .switching.Points)|tostring) + " points " + ((.switching.taken // .switching.Taken)|tostring) + " taken " + ((.switching.share // .switching.Share)|to_entries|map(.key+" "+((.value*100)|round|tostring)+"%")|join(" "))' $a
done
