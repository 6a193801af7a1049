#!/usr/bin/env bash
# Installs everything the project needs on a fresh Debian 12 machine (run as root), and
# nothing that is already there: Debian packages, then the npm packages of package-lock.json.
# Idempotent: a second run only checks.
set -euo pipefail
cd "$(dirname "$0")/.."
began=$SECONDS

APT_PACKAGES=(
  cmake g++ make            # the native build
  libeigen3-dev             # the engine's linear algebra
  libgtest-dev              # native test suites
  nlohmann-json3-dev        # reading the NumPy fixtures in the native tests
  emscripten                # em++ 3.1.6: the WebAssembly build
  clang-14 libclang-rt-14-dev llvm-14  # libFuzzer, AddressSanitizer, UBSan (tests/fuzz)
  chromium                  # end-to-end tests (driven by playwright-core; never downloaded)
  python3-numpy             # the independent reference that writes tests/fixtures
  clang-format              # formatting check of the C++ sources
  fonts-noto-cjk fonts-noto-color-emoji  # so headless screenshots show Chinese and emoji
)

missing=()
for pkg in "${APT_PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$pkg")
  fi
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# npm packages: reinstall only when package-lock.json changed since the last install.
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "setup: installing npm packages"
  npm ci --no-audit --no-fund --loglevel=error
fi
echo "setup: ok ($((SECONDS - began)) s)"
