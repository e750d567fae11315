#!/bin/sh
# One lend of a GPU for the pip classifier's leave-one-set-out rows: for each real set, the two nets of its row
# (seeds 1 and 2, joined afterwards by lab.train.pair) trained from scratch without any photo of it, six side
# by side, each on its own bank. Every run ends its schedule when MINUTES of training are up
# (--fit-to-minutes), so the whole call takes about a minute of loading, the banks, and MINUTES.
#
#   sh lab/train/pip_round.sh DATA OUT MINUTES [FINETUNE OPTION...]
#
# DATA holds d6-tray/, webcam-red-yellow/ and casino-crops/ (a copy of ../shared/datasets carried into the
# lend: the folder beside the checkout does not travel); OUT gets SET.tgz of the runs (bank left out) and their
# logs. Then, here, for each SET and seed S: the row's detector (lab/left_out_models/SET/die_detector.*)
# copied into DIR-S, `python -m lab.train.finetune classifier --run RUN-S --leave-out SET --export DIR-S`;
# `python -m lab.train.pair DIR-1 DIR-2 PAIR`, `python -m lab.train.compact PAIR ROW`, the temperature in
# ROW's card set to the rows' 0.95, and `python -m lab.train.left_out --SET ROW` reads the row.
# BANK (160000) sets each bank's crops; DEVICE=cpu with BANK=2000, MINUTES 0.3 and PYTHON=.venv/bin/python
# tries the script here. Options after MINUTES go to every run, e.g. `--mixup 0.5`, `--mix-style 0.5` or
# `--random-conv 0.5`
# (tried on the CPU rows on 2026-12-01: docs/journal.md).
# On the 2-core development machine a crop takes 1.7 ms and a step of 512 crops 0.38 s: the GPU's part is the
# steps, and six runs share a lend's 16 cores for the banks.
set -u
data=$1 out=$2 minutes=$3 bank=${BANK:-160000} device=${DEVICE:-cuda} python=${PYTHON:-python3}
shift 3
# A fresh folder each call: lab.train.finetune goes on from a run folder's state.pt, so a fixed one went on
# with an earlier call's runs (RUNS names one to go on with on purpose).
runs=${RUNS:-$(mktemp -d /tmp/pip_round.XXXXXX)}
export PYTHONUNBUFFERED=1 OMP_NUM_THREADS=1
mkdir -p "$runs" "$out"
for set in tray webcam casino; do
    for seed in 1 2; do
        "$python" -m lab.train.finetune classifier --run "$runs/$set-$seed" --leave-out "$set" --from-scratch \
            --d6-tray "$data/d6-tray" --webcam "$data/webcam-red-yellow" --casino "$data/casino-crops" \
            --bank "$bank" --batch 512 --lr 0.003 --steps 40000 --minutes "$minutes" --fit-to-minutes \
            --seed "$seed" --workers 2 --device "$device" --every 500 "$@" >"$runs/$set-$seed.log" 2>&1 &
    done
done
wait
for set in tray webcam casino; do
    tail -n 2 "$runs/$set-1.log" "$runs/$set-2.log"
    grep -h "made in\|steps a second" "$runs/$set-1.log" "$runs/$set-2.log"
    tar czf "$out/$set.tgz" -C "$runs" --exclude='bank-*' "$set-1" "$set-2" "$set-1.log" "$set-2.log"
done
