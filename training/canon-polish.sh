#!/usr/bin/env bash
# The shipped 唐诗 model's last phase (docs/models.md, "The canon polish"): a warm restart of
# models/tang.model at a low learning rate on the training text with the 唐诗三百首 poems twice as
# often (32 times instead of 16: 16% of the characters instead of 9%), the repeated spans kept.
# The vocabulary is counted from the text the model was trained on (--vocabulary-text), so the
# warm restart keeps it. Deterministic: the same prepared text and settings give the same weights.
#
#   bash training/canon-polish.sh [<prepared> [<out>]]
#
# <prepared> (default <cache>/prepared, written by `node training/prepare-corpora.mjs <cache> .`);
# writes <out>/tang.{model,report.json} (default <cache>/polish) and leaves models/ alone: copy the
# model in by hand after measuring it (canon-measure.mjs, head-roles, score-models.sh).
# Run it on an otherwise idle machine: about 6 minutes on both cores.
set -euo pipefail
cd "$(dirname "$0")/.."
export LC_ALL=C.UTF-8
cache=${ATTENTION_CORPUS_CACHE:-$HOME/.cache/attention-explorer/corpora}
prepared=${1:-$cache/prepared}
out=${2:-$cache/polish}
train=$prepared/tang.train-before-copies.txt
[ -f "$train" ] || { echo "canon-polish: no $train (run training/prepare-corpora.mjs)" >&2; exit 1; }
mkdir -p "$out"
# The 唐诗三百首 poems as the training text carries them: the lines it repeats 16 – 19 times
# (ANTHOLOGY_TIMES = 16, a few also among the popular poems; 319 lines, 22,993 characters).
sort "$train" | uniq -c | awk '$1 >= 16 && $1 <= 19 { sub(/^ *[0-9]+ /, ""); print }' >"$out/canon-lines.txt"
(cat "$train"; for _ in $(seq 16); do cat "$out/canon-lines.txt"; done) |
  shuf --random-source=<(yes) >"$out/tang.polish.txt"
build=${ATTENTION_POLISH_BUILD:-build/native}
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$build" -j"$(nproc)" --target attention_train_corpus >/dev/null
"$build/cpp/attention_train_corpus" --init models/tang.model --train "$out/tang.polish.txt" \
  --vocabulary-text "$train" --heldout "$prepared/tang.heldout.txt" --sample models/heldout/tang.txt \
  --level character --vocab 5000 --layers 4 --heads 4 --d-model 128 --context-length 64 \
  --batch-size 32 --eval-every 250 --save-every 100000 --steps 1000 --learning-rate 3e-4 \
  --warmup-steps 50 --seed 7 --threads 2 --repeat-spans 0.25 --canon-weighted true \
  --document-start newline --positional-encoding learned \
  --corpus "chinese-poetry@2.0.1 quantangshi, 唐诗三百首 and popular poems weighted (training/tang-canon.mjs), simplified with opencc-js@1.0.5; last 1,000 steps with 唐诗三百首 doubled (training/canon-polish.sh)" \
  --title "Tang poems (trained)" --title-zh "唐诗（训练）" --out "$out/tang.model" \
  --report "$out/tang.report.json" --checkpoint "$out/tang.ckpt" --force | tee "$out/tang.log"
