# Shared by the command-line e2e scripts (source it after `set -u`): a scratch directory removed on exit,
# `fail` set to 1 by any failed expectation, and `expect <code> <description> <command...>`, which runs
# the command with stdout in $tmp/out and stderr in $tmp/err and checks its exit code.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
expect() {
  local want=$1 what=$2
  shift 2
  "$@" >"$tmp/out" 2>"$tmp/err"
  local got=$?
  if [[ $got -ne $want ]]; then
    echo "FAIL: $what: exit $got, expected $want"; cat "$tmp/err"; fail=1
  else
    echo "ok: $what"
  fi
}
