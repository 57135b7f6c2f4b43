# Sourced at the repository root by the guides (docs/getting-started.md): the local runtime's base
# URL, merchant and API key, and two helpers for calling it from a shell.
state=${LOCAL_STATE_DIR:-.local}
if [ ! -f "$state/runtime.json" ]; then
  echo "error: $state/runtime.json is missing: start the service with npm start first" >&2
  return 1
fi
runtime_value() { node -p 'JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"))[process.argv[2]]' "$state/runtime.json" "$1"; }
BASE=$(runtime_value baseUrl)
KEY=$(runtime_value apiKey)
MER=$(runtime_value merchantId)
unset -f runtime_value
unset state

# api ARGS…: one curl call with the key and JSON; an error answer (4xx, 5xx) goes to stderr and fails.
api() {
  local answer status=0
  answer=$(curl -sS --fail-with-body -H "Authorization: Bearer $KEY" -H 'Content-Type: application/json' "$@") \
    || status=$?
  if [ "$status" -ne 0 ]; then
    [ -z "$answer" ] || echo "$answer" >&2
    return "$status"
  fi
  echo "$answer"
}

# field PATH: one field of the JSON on stdin (`items[0].eventId`); one it lacks is an error.
field() {
  node -e 'let v; try { v = JSON.parse(require("fs").readFileSync(0, "utf8")) } catch {}
    for (const key of process.argv[1].split(/[.[\]]+/).filter(Boolean)) v = v?.[key]
    if (v === undefined) { console.error(`error: the answer has no ${process.argv[1]}`); process.exit(1) }
    console.log(v)' "$1"
}
