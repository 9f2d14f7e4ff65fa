"""The HTTP and MCP half of capture.sh: every endpoint and MCP tool of a
running `kedb serve`, one file per request, and the record ids it lists
(written to IDS_FILE for the CLI half).

usage: capture_wire.py URL KEDB KB MESSAGES_FILE OUT_PREFIX IDS_FILE
"""
import json
import subprocess
import sys
import urllib.error
import urllib.parse
import urllib.request

url, kedb, kb, messages_file, prefix, ids_file = sys.argv[1:7]
messages = [l.rstrip("\n") for l in open(messages_file, encoding="utf-8")]
log = open("examples/pytest-cuda.log", encoding="utf-8").read()


def http(name, method, path, body=None, content_type="application/json"):
    data = None if body is None else (body if isinstance(body, bytes) else json.dumps(body).encode())
    req = urllib.request.Request(url + path, data=data, method=method)
    if data is not None:
        req.add_header("Content-Type", content_type)
    try:
        with urllib.request.urlopen(req) as r:
            status, ctype, text = r.status, r.headers.get("Content-Type", ""), r.read()
    except urllib.error.HTTPError as e:
        status, ctype, text = e.code, e.headers.get("Content-Type", ""), e.read()
    with open(f"{prefix}.http.{name}", "wb") as f:
        f.write(f"{status} {ctype}\n".encode() + text + b"\n")
    return text


domains = json.loads(http("domains", "GET", "/v1/domains"))
ids = []
for d in domains["domains"]:
    q = urllib.parse.quote(d["domain"], safe="")
    listing = json.loads(http(f"domain.{q}", "GET", f"/v1/domains/{q}/errors"))
    ids += [e["id"] for e in listing["errors"]]
with open(ids_file, "w") as f:
    f.write("".join(i + "\n" for i in ids))

http("healthz", "GET", "/healthz")
http("stats", "GET", "/v1/stats")
http("openapi", "GET", "/v1/openapi.json")
for i, m in enumerate(messages, 1):
    http(f"match.{i}", "POST", "/v1/match", {"text": m, "top": 3})
http("match.env", "POST", "/v1/match", {"text": messages[0], "env": "torch=2.2,os=linux", "lang": "zh"})
http("match.bad", "POST", "/v1/match", {"text": 5})
http("match.unknown_field", "POST", "/v1/match", {"text": "x", "colour": 1})
http("scan", "POST", "/v1/scan", {"text": log})
http("scan.plain", "POST", "/v1/scan", log.encode(), "text/plain")
for i, q in enumerate(["cudnn bad param", "out of memory", "显存不足", "zzzz"], 1):
    http(f"search.{i}", "GET", "/v1/search?" + urllib.parse.urlencode({"q": q}))
for i in ids[::7]:
    f = i.replace("/", "_")
    http(f"errors.{f}", "GET", f"/v1/errors/{i}")
    http(f"errors.{f}.zh", "GET", f"/v1/errors/{i}?lang=zh")
    http(f"chain.{f}", "GET", f"/v1/errors/{i}/chain?depth=2")
http("errors.missing", "GET", "/v1/errors/cuda/cudnn-bad-parm")
http("no_such_path", "GET", "/v1/nothing")

# MCP over stdio, every tool once or more.
calls = [("initialize", {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "golden", "version": "1"}}),
         ("tools/list", {})]
tool = lambda name, args: ("tools/call", {"name": name, "arguments": args})
calls += [tool("lookup_error", {"error_message": m}) for m in messages[:5]]
calls += [tool("scan_log", {"log_text": log}), tool("batch_lookup", {"error_messages": messages[:4]}),
          tool("search_errors", {"query": "out of memory", "limit": 5}), tool("list_error_domains", {}),
          tool("list_errors_by_domain", {"domain": domains["domains"][0]["domain"], "sort_by": "name"}),
          tool("get_domain_stats", {"domain": domains["domains"][0]["domain"]}),
          tool("lookup_error", {"error_message": ""}), tool("no_such_tool", {})]
calls += [tool("get_error_detail", {"error_id": i, "lang": "zh"}) for i in ids[::13]]
calls += [tool("get_error_chain", {"error_id": i, "depth": 2}) for i in ids[::13]]
lines = [json.dumps({"jsonrpc": "2.0", "id": n, "method": m, "params": p}) for n, (m, p) in enumerate(calls, 1)]
lines.append("{not json")
r = subprocess.run([kedb, "mcp", "--kb", kb], input="\n".join(lines) + "\n", capture_output=True, text=True)
with open(f"{prefix}.mcp.stdio", "w", encoding="utf-8") as f:
    f.write(r.stdout + f"--- exit {r.returncode}\n")
for n, line in enumerate(lines[:8], 1):
    http(f"mcp.{n}", "POST", "/mcp", line.encode())
