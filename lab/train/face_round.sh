#!/bin/sh
# One lend of a GPU for the face embedder: fresh arts, then the net of every set and the three nets that each
# leave a set out, trained side by side. A lend is 15 minutes in all: a net grows over several lends, and the
# left-out nets grow with it, so that its leave-one-set-out figures stay its own.
#
#   sh lab/train/face_round.sh FIRST_ART FROM OUT SECONDS
#
# FROM holds all/, tray/, webcam/, casino/ with face_embedder.pt (or .onnx) and .json: an earlier round's OUT,
# or models/face_embedder.* copied to FROM/all/ for the shipped net; each net goes on from its weights at
# learning rate 0.001. FROM `none`: every net starts anew, at 0.003. OUT gets the same folders, each net
# trained for SECONDS on ARTS arts of seeds FIRST_ART on (never seen by FROM's nets: take FIRST_ART past every
# earlier round's). With JITTERED=1 the other recipe's four nets (twice the arts a batch, the cuts shifted,
# scaled and turned) train beside them, in OUT/jittered/ (going on from FROM/jittered/). With INVERT=P every
# net learns with that share of its cuts inverted (face_fit --invert; 0.3 tried on the CPU, 2026-12-01: a
# wash, docs/journal.md). Needs .facedata/real.npz (the real sets' cuts, made once by face_samples with --arts
# 0 --tables 0 --errors 4) and the `train` extra. On a 16-core H200 the arts took 132 s and each net, bound by
# Python's launching of the GPU's work, made 8.7 steps a second (4.9 the other recipe), eight side by side.
set -eu
first=$1 from=$2 out=$3 seconds=$4
arts=${ARTS:-16000} tables=${TABLES:-24000}  # smaller only to try the script
data="$out/faces.npz"
mkdir -p "$out"
python -m lab.train.face_samples --out "$data" --arts "$arts" --first-art "$first" --views 8 --tables "$tables" \
    --workers "$(nproc)" --real .facedata/real.npz
recipes="plain"
[ "${JITTERED:-0}" = 1 ] && recipes="plain jittered"
for recipe in $recipes; do
    sub="" extra=""
    [ "$recipe" = plain ] || sub="/jittered" extra="--batch-arts 192 --jitter 1"
    into="$out$sub"
    mkdir -p "$into"
    for set in all tray webcam casino; do
        leave="" init="" lr=3e-3
        [ "$set" = all ] || leave="--leave-out $set"
        if [ "$from" != none ]; then
            init="$from$sub/$set/face_embedder.pt" lr=1e-3
            [ -f "$init" ] || init="$from$sub/$set/face_embedder.onnx"
            init="--init $init"
        fi
        # shellcheck disable=SC2086
        OMP_NUM_THREADS=2 python -m lab.train.face_fit --data "$data" --out "$into/$set" $init $leave $extra \
            --steps 1000000 --max-seconds "$seconds" --lr "$lr" --seed "$first" \
            --invert "${INVERT:-0}" --report 500 \
            >"$into/$set.log" 2>&1 &
    done
done
wait
rm "$data"
tail -n 2 "$out"/*.log "$out"/jittered/*.log 2>/dev/null || true
