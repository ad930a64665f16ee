#!/usr/bin/env bash
# mypy cannot follow setuptools' editable finder, so lay the tavolo.* namespace out as
# symlinks (tavolo/<name> -> libs/<name> or services/<name>) and check that tree.
set -euo pipefail
cd "$(dirname "$0")/.."
root=build/typecheck/tavolo
rm -rf build/typecheck && mkdir -p "$root"
for d in libs/*/; do
  name=$(basename "$d")
  [ "$name" = protocol ] && continue
  ln -s "../../../$d" "$root/$name"
done
ln -s ../../../libs/protocol/tavolo/v1 "$root/v1"
touch "$root/__init__.py"
for d in services/*/; do ln -s "../../../$d" "$root/$(basename "$d")"; done
python="${PYTHON:-$PWD/.venv/bin/python}"
cd build/typecheck
exec "$python" -m mypy --config-file ../../pyproject.toml tavolo "$@"
