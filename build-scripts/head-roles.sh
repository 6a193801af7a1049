#!/usr/bin/env bash
# Measures the head roles of the shipped models on their committed held-out samples and writes
# the sidecars models/{tang,brown}.roles.json (docs/models.md "Head roles"), which
# tests/cpp/corpus_roles_test.cpp recomputes. train-models.sh runs it after training; rerun it by
# hand (`npm run roles:models`, a few seconds) after changing a model or the role definitions.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${ATTENTION_ROLES_BUILD:-build/native}
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$build" -j"$(nproc)" --target attention_head_roles >/dev/null
tool=$build/cpp/attention_head_roles
"$tool" --model models/tang.model --sample models/heldout/tang.txt --out models/tang.roles.json
"$tool" --model models/brown.model --sample models/heldout/brown.txt \
  --tags models/heldout/brown.tags.txt --out models/brown.roles.json
