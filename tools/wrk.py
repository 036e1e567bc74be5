"""Drive a loopback server with wrk (Debian's `wrk`, a C load generator) for `make bench`.

The Python load generator (tools/loadgen.py) spends ~100-150 us of CPU per request on
these two cores: against a server that answers a kept page in far less, it measures
itself. wrk costs a few microseconds per request, so the ratios between servers are the
servers'. It sends the same prepared requests (loadgen.Req.raw) round-robin, over
keep-alive connections; a status other than 2xx/3xx or a socket error is a failure.
"""
from __future__ import annotations

import re
import shutil
import subprocess
import tempfile
from pathlib import Path
from urllib.parse import urlsplit

from tools.loadgen import Req

SEPARATOR = b"\n--wrk-request--\n"
SCRIPT = r"""
local requests = {}
local n = 0
init = function(args)
  local file = io.open(args[1], "rb")
  local data = file:read("*a")
  file:close()
  local separator = "\n--wrk-request--\n"
  local start = 1
  while true do
    local i, j = string.find(data, separator, start, true)
    if not i then break end
    requests[#requests + 1] = string.sub(data, start, i - 1)
    start = j + 1
  end
end
request = function()
  n = n % #requests + 1
  return requests[n]
end
"""


def available() -> bool:
    return shutil.which("wrk") is not None


def run(base: str, requests: list[Req], connections: int, duration: float) -> float:
    """Requests per second; SystemExit on any failed request."""
    url = urlsplit(base)
    if url.hostname not in ("127.0.0.1", "localhost", "::1"):
        raise ValueError("load is only ever sent to the loopback interface")
    with tempfile.TemporaryDirectory(prefix="shinpan-wrk-") as folder:
        script = Path(folder) / "requests.lua"
        script.write_text(SCRIPT)
        data = Path(folder) / "requests.bin"
        data.write_bytes(b"".join(req.raw + SEPARATOR for req in requests))
        out = subprocess.run(
            ["wrk", "-t1", f"-c{connections}", f"-d{duration:g}s", "--timeout", "10s",
             "-s", str(script), base, "--", str(data)],
            capture_output=True, text=True, check=False).stdout
    rate = re.search(r"Requests/sec:\s+([\d.]+)", out)
    failed = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    errors = re.search(r"Socket errors: (.*)", out)
    if rate is None or failed or errors:
        raise SystemExit(f"wrk against {base} failed:\n{out}")
    return float(rate.group(1))
