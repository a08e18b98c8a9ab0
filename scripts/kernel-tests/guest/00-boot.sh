#!/bin/bash
# Smoke test: the guest booted, the hid-sensor modules are loaded and /dev/uhid exists.
. "$MB_TEST_LIB"
mods=$(cut -d' ' -f1 /proc/modules | sort | tr '\n' ' ')
uhid=false; [ -c /dev/uhid ] && uhid=true
write_result "$(python3 - "$mods" "$uhid" <<'PY'
import json, sys
print(json.dumps({"modules": sys.argv[1].split(), "uhid": sys.argv[2] == "true"}))
PY
)"
