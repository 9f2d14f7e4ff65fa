#!/bin/sh
# A stand-in for a model runner in the tests of `kedb mine --llm`: it reads
# the prompt, checks that it carries the thread, and answers with fields a
# model would fill.
prompt=$(cat)
case "$prompt" in
  *"Thread:"*"torch.no_grad"*) ;;
  *) echo "the prompt has no thread" >&2; exit 3 ;;
esac
cat <<'JSON'
{"root_cause": "Validation ran with autograd enabled, so every batch kept its graph alive until memory ran out.",
 "root_cause_zh": "验证时未关闭自动求导，每个批次的计算图都被保留，直到显存耗尽。",
 "workarounds": [{"action": "Run validation under torch.no_grad()", "how": "with torch.no_grad(): evaluate(model)"}]}
JSON
