#!/bin/sh
# One lend of a GPU for the face embedder: fresh arts, then the net of every set and the three nets that each
# leave a set out go on from their last weights, side by side. A lend is 15 minutes in all: a net grows over
# several lends, and the left-out nets grow with it, so that its leave-one-set-out figures stay its own.
#
#   sh lab/train/face_round.sh FIRST_ART FROM OUT SECONDS
#
# FROM holds all/, tray/, webcam/, casino/ with face_embedder.pt (or .onnx) and .json: an earlier round's OUT,
# or models/face_embedder.* copied to FROM/all/ for the shipped net. OUT gets the same, each net trained for
# SECONDS on 16,000 arts of seeds FIRST_ART on (never seen by FROM's nets: take FIRST_ART past every earlier
# round's). Needs .facedata/real.npz (the real sets' cuts, made once by
# face_samples without --real) and the `train` extra.
set -eu
first=$1 from=$2 out=$3 seconds=$4
arts=${ARTS:-16000} tables=${TABLES:-24000}  # smaller only to try the script
data="$out/faces.npz"
mkdir -p "$out"
python -m lab.train.face_samples --out "$data" --arts "$arts" --first-art "$first" --views 8 --tables "$tables" \
    --workers "$(nproc)" --real .facedata/real.npz
for set in all tray webcam casino; do
    leave="" init="$from/$set/face_embedder.pt"
    [ "$set" = all ] || leave="--leave-out $set"
    [ -f "$init" ] || init="$from/$set/face_embedder.onnx"
    # shellcheck disable=SC2086
    python -m lab.train.face_fit --data "$data" --out "$out/$set" --init "$init" \
        $leave --steps 1000000 --max-seconds "$seconds" --lr 1e-3 --seed "$first" --report 500 \
        >"$out/$set.log" 2>&1 &
done
wait
rm "$data"
tail -n 2 "$out"/*.log
