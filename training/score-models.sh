#!/usr/bin/env bash
# Scores the committed models on a prepared split without training them, for when the split or a
# baseline's definition changes and the models do not (docs/models.md, "Scoring without
# training"): the trainer's warm restart (--init) of one step at learning rate 1e-300 leaves every
# weight as it was (the update is far below float16 precision) and writes the report of a run:
# held-out loss, unigram, bigram, Kneser–Ney 3- and 5-gram, the loss by window position, and the
# committed sample's numbers.
#
#   bash training/score-models.sh [<prepared> [<out>]]
#
# <prepared> (default <cache>/prepared, written by `node training/prepare-corpora.mjs <cache> .`):
# Tang is scored with tang.train-before-copies.txt, the text the shipped model trained on (its
# vocabulary and the baselines are counted from it), and tang.heldout.txt; Brown with
# brown.train.txt and brown.heldout.txt. Each with models/heldout/<name>.txt as its sample.
# Writes <out>/<name>.{model,report.json} (default <cache>/score) and prints the numbers; the
# repository is not touched. One thread, nice 10: minutes, not hours. `node
# training/apply-scores.mjs <out>` then writes the numbers into models/<name>.report.json and the
# model files' configurations (weights kept byte for byte); `npm run roles:models` and
# tests/reference/kneser_ney_reference.py follow a changed sample.
set -euo pipefail
cd "$(dirname "$0")/.."
cache=${ATTENTION_CORPUS_CACHE:-$HOME/.cache/attention-explorer/corpora}
prepared=${1:-$cache/prepared}
out=${2:-$cache/score}
for file in tang.train-before-copies.txt tang.heldout.txt brown.train.txt brown.heldout.txt; do
  if [ ! -f "$prepared/$file" ]; then
    echo "score-models: no $prepared/$file (node training/prepare-corpora.mjs <cache> . writes it)" >&2
    exit 1
  fi
done
mkdir -p "$out"
build=${ATTENTION_SCORE_BUILD:-build/native}
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release >/dev/null
nice -n 10 cmake --build "$build" -j1 --target attention_train_corpus >/dev/null
trainer=$build/cpp/attention_train_corpus
# The shipped models' shape and text flags (build-scripts/train-models.sh and the repeated-span
# runs, docs/models.md): --init refuses a model of another configuration.
shape=(--vocab 5000 --layers 4 --heads 4 --d-model 128 --context-length 64 --batch-size 32
  --threads 1 --steps 1 --eval-every 1 --learning-rate 1e-300 --min-learning-rate 1e-300
  --repeat-spans 0.25 --seed 1 --positional-encoding learned)

score() {
  local name=$1 train=$2
  echo "score-models: $name (log: $out/$name.log)"
  nice -n 10 "$trainer" --init "models/$name.model" --train "$prepared/$train" \
    --heldout "$prepared/$name.heldout.txt" --sample "models/heldout/$name.txt" "${shape[@]}" \
    --out "$out/$name.model" --report "$out/$name.report.json" --force "${@:3}" >"$out/$name.log" 2>&1
  node -e 'const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
    const keys = ["heldOutTokens", "heldOutLoss", "unigramLoss", "bigramLoss", "kn3Loss", "kn5Loss",
      "sampleLoss", "sampleUnigramLoss", "sampleBigramLoss", "sampleKn5Loss"];
    console.log(keys.map((k) => `  ${k} ${r[k]}`).join("\n"));
    for (const p of r.lossByPosition)
      console.log(`  positions ${p.positions}: transformer ${p.transformer.toFixed(4)}, ` +
        `KN 5-gram ${p.kn5.toFixed(4)}, difference ${(p.transformer - p.kn5).toFixed(4)}`);' \
    "$out/$name.report.json"
}
score tang tang.train-before-copies.txt --level character --canon-weighted true \
  --document-start newline
score brown brown.train.txt --level word --lowercase true
