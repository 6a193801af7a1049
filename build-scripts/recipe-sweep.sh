#!/usr/bin/env bash
# Chooses the shipped models' recipe by measurement: short runs side by side at
# equal wall time, each on every core, on the texts npm run train:models prepares (run it, or
# QUICK=1 of it, once first: it fetches the corpora into the cache). For each recipe a 30-step
# probe measures the step time, then a run of as many steps as fit in MINUTES (default 10) with
# its full cosine; the table at the end (also <cache>/sweep/table.txt) gives held-out loss,
# KN 5-gram, steps and tokens/s. Not part of npm test; run it on an otherwise idle machine.
#
#   MODEL=tang MINUTES=10 bash build-scripts/recipe-sweep.sh
set -euo pipefail
cd "$(dirname "$0")/.."
cache=${ATTENTION_CORPUS_CACHE:-$HOME/.cache/attention-explorer/corpora}
model=${MODEL:-tang}
minutes=${MINUTES:-10}
prepared=$cache/sweep/prepared
out=$cache/sweep/$model
level=character
[ "$model" = brown ] && level=word
if [ ! -d "$cache/x/chinese-poetry-2.0.1/package" ]; then
  echo "recipe-sweep: the corpora are not in $cache: run QUICK=1 npm run train:models once first" >&2
  exit 1
fi
mkdir -p "$out"
# The texts as train:models prepares them (its samples and lists into a scratch folder).
[ -f "$prepared/$model.train.txt" ] || node training/prepare-corpora.mjs "$cache" "$cache/sweep/scratch" "$prepared"
cmake -S . -B build/train -DCMAKE_BUILD_TYPE=Release -DATTENTION_AVX2=ON >/dev/null
cmake --build build/train -j"$(nproc)" --target attention_train_corpus >/dev/null
trainer=build/train/cpp/attention_train_corpus

# name: flags (the shape and optimiser; vocabulary 5,000 and the data are the same for all)
recipes=(
  "L2-d128-c64:--layers 2 --heads 4 --d-model 128 --context-length 64 --batch-size 32 --learning-rate 3e-3"
  "L4-d128-c64:--layers 4 --heads 4 --d-model 128 --context-length 64 --batch-size 32 --learning-rate 2e-3"
  "L4-d96-c64:--layers 4 --heads 4 --d-model 96 --context-length 64 --batch-size 32 --learning-rate 3e-3"
  "L4-d128-c128:--layers 4 --heads 4 --d-model 128 --context-length 128 --batch-size 16 --learning-rate 2e-3"
  "L6-d96-c64:--layers 6 --heads 4 --d-model 96 --context-length 64 --batch-size 32 --learning-rate 2e-3"
)
run() {  # name, steps, flags…
  local name=$1 steps=$2
  shift 2
  # shellcheck disable=SC2068
  "$trainer" --train "$prepared/$model.train.txt" --heldout "$prepared/$model.heldout.txt" \
    --level "$level" --vocab 5000 $@ --steps "$steps" --warmup-steps 100 --seed 1 \
    --positional-encoding learned \
    --eval-every 200 --save-every 1000000 --out "$out/$name.model" --report "$out/$name.json" --force \
    >"$out/$name.log" 2>&1
}
for recipe in "${recipes[@]}"; do
  name=${recipe%%:*}
  flags=${recipe#*:}
  if [ -f "$out/$name.json" ] && [ -z "${AGAIN:-}" ]; then continue; fi  # resumable by recipe
  run "$name.probe" 30 $flags
  # The probe's training speed (its log's tok/s: the steps alone, not the setup or the scoring),
  # then the steps that fit, less a tenth for the progress checks every 200 steps.
  steps=$(node -e 'const fs = require("fs"); const r = JSON.parse(fs.readFileSync(process.argv[1], "utf8"));
    const speed = Number(fs.readFileSync(process.argv[2], "utf8").match(/(\d+) tok\/s/g).at(-1).split(" ")[0]);
    console.log(Math.max(100, Math.floor((0.9 * process.argv[3] * 60 * speed) / (r.batchSize * r.contextLength))));' \
    "$out/$name.probe.json" "$out/$name.probe.log" "$minutes")
  echo "recipe-sweep: $model $name: $steps steps in about $minutes min"
  run "$name" "$steps" $flags
done
node -e 'const fs = require("fs"); const dir = process.argv[1];
  const rows = fs.readdirSync(dir).filter((f) => f.endsWith(".json") && !f.includes(".probe"));
  const lines = rows.map((f) => { const r = JSON.parse(fs.readFileSync(dir + "/" + f, "utf8"));
    return [f.replace(".json", ""), r.heldOutLoss.toFixed(4), r.kn5Loss.toFixed(4),
      (r.heldOutLoss - r.kn5Loss).toFixed(4), r.parameters, r.steps, Math.round(r.tokensSeen),
      Math.round(r.tokensPerSecond), Math.round(r.trainSeconds)].join("\t"); });
  const table = ["recipe\theld-out\tKN5\tdiff\tparams\tsteps\ttokens\ttok/s\ts", ...lines].join("\n");
  fs.writeFileSync(dir + "/table.txt", table + "\n"); console.log(table);' "$out"
