// Labels of the kedb web page, English and Chinese side by side so a missing
// translation shows up in review. "%s" is replaced by the arguments of t() in order.
const LABELS = {
  'nav.triage': ['Triage', '排查'], 'nav.domains': ['Domains', '领域'],
  'search.placeholder': ['Search known errors…', '搜索已知错误…'], 'search.label': ['Search known errors', '搜索已知错误'],
  'foot.about': ['kedb — a known-error database: root causes, workarounds and dead ends for failed jobs.',
    'kedb — 已知错误库：失败任务的根因、解决办法与无效尝试。'],
  'colon': [': ', '：'], 'health': ['%s records', '%s 条记录'],
  'loading': ['Loading…', '加载中…'], 'error': ['Error', '错误'],
  'error.network': ['Cannot reach the kedb server', '无法连接 kedb 服务'], 'notfound': ['No such page.', '页面不存在。'],
  'triage.title': ['Paste a log', '粘贴日志'],
  'triage.hint': ['Paste the output of a failed job. kedb finds each error block, root error first, and tells what is known about it.',
    '粘贴失败任务的输出。kedb 会找出每个错误块（根因错误在前），并给出已知的信息。'],
  'triage.analyze': ['Analyze', '分析'], 'triage.busy': ['Analyzing…', '分析中…'],
  'triage.shortcut': ['Ctrl+Enter', 'Ctrl+Enter'], 'triage.example': ['Load an example', '载入示例'],
  'triage.open': ['Open a file…', '打开文件…'], 'triage.empty': ['Paste a log first.', '请先粘贴日志。'],
  'sum.lines': ['lines', '行'], 'sum.blocks': ['error blocks', '个错误块'], 'sum.known': ['known errors', '个已知错误'],
  'sum.truncated': ['%s over-long lines cut', '%s 行过长被截断'], 'sum.dropped': ['%s blocks dropped', '%s 个错误块被丢弃'],
  'sum.noblocks': ['No error blocks found in this log.', '日志中没有发现错误块。'],
  'block.root': ['root', '根因'],
  'block.rootHint': ['The first failure: later blocks are usually its consequences.', '最先发生的失败：之后的错误块通常是它的后果。'],
  'block.line': ['line %s', '第 %s 行'], 'block.lines': ['lines %s–%s', '第 %s–%s 行'],
  'block.repeat': ['repeated ×%s', '重复 ×%s'], 'block.causedBy': ['caused by block #%s', '由错误块 #%s 引起'],
  'block.frames': ['%s frames', '%s 个调用帧'], 'block.framesShown': ['%s of %s frames shown', '显示 %s / %s 个调用帧'],
  'block.abstained': ['No known error — kedb abstains rather than guess.', '无已知错误 — kedb 不做猜测。'],
  'block.others': ['%s other candidates', '其他 %s 个候选'], 'block.other1': ['1 other candidate', '其他 1 个候选'],
  'card.score': ['%s likely right · score %s', '%s 可能正确 · 得分 %s'], 'card.recordConfidence': ['record confidence', '记录置信度'], 'card.rootCause': ['Root cause', '根因'],
  'card.workarounds': ['Workarounds', '解决办法'], 'card.deadEnds': ["Dead ends — don't try", '无效尝试 — 不要试'],
  'card.fails': ['fails %s', '失败率 %s'], 'card.resolvable': ['resolvable', '可解决'],
  'card.fixRate': ['fix success', '修复成功率'], 'card.confidence': ['confidence', '置信度'],
  'card.why': ['Why this match', '匹配依据'], 'card.none': ['none recorded', '无记录'],
  'res.true': ['yes', '是'], 'res.partial': ['partly', '部分'], 'res.false': ['no', '否'],
  'rec.original': ['As it appears in logs', '日志中的原文'], 'rec.aliases': ['Also seen as', '其他形式'],
  'rec.domain': ['domain', '领域'], 'rec.category': ['category', '类别'], 'rec.errorCode': ['error code', '错误码'],
  'rec.condition': ['When', '适用条件'], 'rec.tradeoff': ['Trade-off', '代价'], 'rec.sources': ['Sources', '来源'],
  'rec.versions': ['Versions', '版本'], 'rec.version': ['version', '版本'], 'rec.introduced': ['introduced', '引入'],
  'rec.deprecated': ['deprecated', '弃用'], 'rec.removed': ['removed', '移除'],
  'rec.change': ['behaviour change', '行为变化'], 'rec.status': ['status', '状态'],
  'rec.os': ['Operating systems', '操作系统差异'], 'rec.doc': ['Official documentation', '官方文档'],
  'rec.tier': ['verification', '验证级别'], 'rec.evidence': ['evidence count', '证据数'],
  'rec.firstSeen': ['first seen', '首次出现'], 'rec.lastConfirmed': ['last confirmed', '最近确认'],
  'rec.lastUpdated': ['last updated', '最近更新'], 'rec.tags': ['tags', '标签'],
  'rec.graph': ['Transition graph', '错误转移图'],
  'fb.ask': ['Did this fix work?', '这个办法有效吗？'], 'fb.worked': ['Worked', '有效'],
  'fb.failed': ["Didn't work", '无效'], 'fb.partial': ['Partly', '部分有效'],
  'fb.token': ["This server's write token (KEDB_TOKEN), to report outcomes:", '此服务的写入令牌（KEDB_TOKEN），用于报告结果：'],
  'fb.thanks': ['Recorded. Success rate now %s.', '已记录。当前成功率 %s。'],
  'fb.badToken': ['The server refused the token; try again to enter another.', '服务器拒绝了该令牌；再试一次可输入其他令牌。'],
  'fb.reported': ['reported: %s worked, %s failed, %s partly', '报告：%s 次有效，%s 次无效，%s 次部分有效'],
  'fb.curated': ['curated %s', '人工评估 %s'],
  'hits.title': ['Seen in logs', '日志中的出现'], 'hits.none': ["Not matched yet in this server's statistics.", '此服务的统计中尚无匹配。'],
  'hits.counts': ['%s in 24 h · %s in 7 days · %s in 30 days · %s in all', '24 小时 %s 次 · 7 天 %s 次 · 30 天 %s 次 · 共 %s 次'],
  'hits.last': ['last %s', '最近 %s'], 'hits.chart': ['Matches per day, last 30 days', '最近 30 天每日匹配次数'],
  'hits.day': ['%s days ago: %s', '%s 天前：%s 次'],
  'graph.more': ['Show errors two steps away (%s more)', '显示两步以内的错误（另有 %s 个）'],
  'graph.less': ['Show direct neighbours only', '只显示直接相邻的错误'],
  'rec.noEdges': ['No known transitions.', '没有已知的转移关系。'],
  'rec.legend': ['→ leads to · - - often confused with · grey: not in this knowledge base',
    '→ 导致 · - - 常被混淆 · 灰色：不在本知识库中'],
  'rel.preceded_by': ['Preceded by', '前序错误'], 'rel.leads_to': ['Leads to', '可能导致'],
  'rel.confused_with': ['Often confused with', '常被混淆'],
  'search.title': ['Search', '搜索'], 'search.terms': ['matched', '命中词'],
  'search.count': ['Records matching “%s”: %s', '匹配“%s”的记录：%s 条'],
  'search.none': ['No record matches “%s”.', '没有记录匹配“%s”。'],
  'dom.title': ['Domains', '领域'], 'dom.sort': ['Sort by', '排序'],
  'dom.total': ['%s records in %s domains', '共 %s 条记录，%s 个领域'],
  'sort.name': ['name', '名称'], 'sort.fix_rate': ['fix success', '修复成功率'], 'sort.confidence': ['confidence', '置信度'],
};

const LANG_KEY = 'kedb.lang';
// A live binding: importers read the value saveLang() last stored.
export let lang = (() => { try { return localStorage.getItem(LANG_KEY) === 'zh' ? 'zh' : 'en'; } catch { return 'en'; } })();

// Stores the choice for the next visit; false when it was already the language.
export function saveLang(next) {
  if (next === lang) return false;
  lang = next;
  try { localStorage.setItem(LANG_KEY, lang); } catch { /* private mode: keep it for this page only */ }
  return true;
}

export function t(key, ...args) {
  const pair = LABELS[key];
  let s = pair ? pair[lang === 'zh' ? 1 : 0] : key;
  for (const a of args) s = s.replace('%s', String(a));
  return s;
}

// A record's field in the current language: "<name>_zh" when in Chinese and present.
export function loc(rec, name) {
  const zh = rec[name + '_zh'];
  return lang === 'zh' && typeof zh === 'string' && zh.trim() ? zh : rec[name];
}

// The static page's own labels, marked with data-i18n* attributes in index.html.
export function applyLabels() {
  document.documentElement.lang = lang === 'zh' ? 'zh-CN' : 'en';
  document.querySelectorAll('[data-i18n]').forEach((el) => { el.textContent = t(el.dataset.i18n); });
  document.querySelectorAll('[data-i18n-placeholder]').forEach((el) => { el.placeholder = t(el.dataset.i18nPlaceholder); });
  document.querySelectorAll('[data-i18n-aria]').forEach((el) => el.setAttribute('aria-label', t(el.dataset.i18nAria)));
  document.querySelectorAll('[data-lang]').forEach((b) => b.setAttribute('aria-pressed', String(b.dataset.lang === lang)));
}
