// The man page (kedb.1, man(7) macros) rendered from the program's
// description.
#include <algorithm>

#include <fmt/format.h>

#include "cli/cli_docs.h"

namespace kedb::cli {
namespace {

// Length of the UTF-8 sequence a lead byte starts (1 for a stray byte).
std::size_t Utf8Length(unsigned char lead) {
  if (lead >= 0xF0) return 4;
  if (lead >= 0xE0) return 3;
  if (lead >= 0xC0) return 2;
  return 1;
}

// Text for a roff line. Hyphens are escaped so options and examples copy
// as typed (a bare '-' may print as a typographic hyphen); characters past
// ASCII become \[uXXXX], as preconv would write them, so the page is
// plain ASCII whatever the reader's locale.
std::string Roff(const std::string& text) {
  std::string out;
  for (std::size_t i = 0; i < text.size();) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c < 0x80) {
      if (c == '\\') out += "\\e";
      else if (c == '-') out += "\\-";
      else out += static_cast<char>(c);
      ++i;
      continue;
    }
    const std::size_t n = std::min(Utf8Length(c), text.size() - i);
    unsigned code = n == 1 ? c : c & (0xFF >> (n + 1));
    for (std::size_t k = 1; k < n; ++k) code = (code << 6) | (static_cast<unsigned char>(text[i + k]) & 0x3F);
    out += fmt::format("\\[u{:04X}]", code);
    i += n;
  }
  return out;
}

// A line of running text: a leading '.' or '\'' would read as a request.
std::string TextLine(const std::string& line) {
  std::string escaped = Roff(line);
  if (!escaped.empty() && (escaped[0] == '.' || escaped[0] == '\'')) escaped = "\\&" + escaped;
  return escaped + "\n";
}

// Running text from a description that may hold line breaks: each line
// trimmed, since a line starting with a space breaks the paragraph.
std::string Prose(const std::string& text) {
  std::string out;
  std::size_t start = 0;
  while (start <= text.size()) {
    auto end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    std::string line = text.substr(start, end - start);
    line.erase(0, line.find_first_not_of(" \t"));
    if (!line.empty()) out += TextLine(line);
    start = end + 1;
  }
  return out;
}

std::string Bold(const std::string& text) { return "\\fB" + Roff(text) + "\\fR"; }
std::string Italic(const std::string& text) { return "\\fI" + Roff(text) + "\\fR"; }

// "-h, --help" or "--format FORMAT" as the tag of an option's entry.
std::string OptionTag(const OptionDoc& o) {
  std::string tag;
  for (const auto& name : o.names) tag += (tag.empty() ? "" : ", ") + Bold(name);
  if (!o.value_name.empty()) tag += " " + Italic(o.value_name) + (o.repeats ? " ..." : "");
  return tag;
}

std::string OptionEntry(const OptionDoc& o) {
  std::string text = o.description;
  if (!o.choices.empty()) {
    if (!text.empty() && text.back() != '.') text += ".";
    std::string list;
    for (const auto& c : o.choices) list += (list.empty() ? "" : ", ") + c;
    text += " One of: " + list + ".";
  }
  if (o.required) text += (text.empty() || text.back() == '.' ? " " : ". ") + std::string("Required.");
  return ".TP\n" + OptionTag(o) + "\n" + Prose(text);
}

// "kedb scan [OPTIONS] FILE": the required options and the arguments.
std::string CommandSynopsis(const std::string& program, const CommandDoc& cmd) {
  std::string line = Bold(program + " " + cmd.name) + " [" + Italic("OPTIONS") + "]";
  for (const auto& o : cmd.options) {
    if (o.required) line += " " + Bold(MainName(o)) + (o.value_name.empty() ? "" : " " + Italic(o.value_name));
  }
  for (const auto& p : cmd.positionals) {
    const std::string arg = Italic(p.value_name) + (p.repeats ? " ..." : "");
    line += " " + (p.required ? arg : "[" + arg + "]");
  }
  return line + "\n";
}

// A footer holds prose and examples. The examples are the indented lines,
// kept as they are less the indent of their block's first line (so a
// continued command stays indented). A prose line ending in ':'
// ("Examples:") starts a paragraph of its own.
std::string Footer(const std::string& footer) {
  std::string out;
  std::size_t block_indent = 0;  // 0: in prose
  std::size_t start = 0;
  while (start < footer.size()) {
    auto end = footer.find('\n', start);
    if (end == std::string::npos) end = footer.size();
    const std::string line = footer.substr(start, end - start);
    start = end + 1;
    const auto indent = line.find_first_not_of(" \t");
    if (indent == std::string::npos) continue;
    if (indent > 0) {
      if (block_indent == 0) {
        out += ".PP\n.RS 4\n.nf\n";
        block_indent = indent;
      }
      out += TextLine(line.substr(std::min(indent, block_indent)));
      continue;
    }
    if (block_indent > 0) out += ".fi\n.RE\n";
    if (block_indent > 0 || out.empty() || line.back() == ':') out += ".PP\n";
    block_indent = 0;
    out += TextLine(line);
  }
  if (block_indent > 0) out += ".fi\n.RE\n";
  return out;
}

// An option of the program's own that every command repeats (--help):
// documented once, under OPTIONS.
bool IsShared(const OptionDoc& option, const ProgramDoc& doc) {
  return std::any_of(doc.options.begin(), doc.options.end(),
                     [&](const OptionDoc& o) { return o.names == option.names; });
}

std::string CommandSection(const ProgramDoc& doc, const CommandDoc& cmd) {
  std::string out = fmt::format(".SS \"{} {}\"\n", doc.name, cmd.name);
  out += CommandSynopsis(doc.name, cmd) + ".PP\n" + Prose(cmd.description);
  for (const auto& p : cmd.positionals) out += OptionEntry(p);
  for (const auto& o : cmd.options) {
    if (!IsShared(o, doc)) out += OptionEntry(o);
  }
  return out + Footer(cmd.footer);
}

std::string Entries(const std::vector<NamedDoc>& entries, bool name_in_bold) {
  std::string out;
  for (const auto& e : entries) {
    out += ".TP\n" + (name_in_bold ? Bold(e.name) : Italic(e.name)) + "\n" + Prose(e.description);
  }
  return out;
}

std::string Header(const ProgramDoc& doc) {
  std::string summary = doc.summary;
  if (summary.rfind(doc.name + ": ", 0) == 0) summary.erase(0, doc.name.size() + 2);
  std::string out = fmt::format(".TH {} 1 \"\" \"{} {}\" \"User Commands\"\n", "KEDB", doc.name, doc.version);
  // No hyphenation and a ragged right edge: ids, options and URLs stay whole.
  out += ".nh\n.ad l\n";
  out += ".SH NAME\n" + doc.name + " \\- " + Roff(summary) + "\n";
  out += ".SH SYNOPSIS\n" + Bold(doc.name) + " " + Italic("COMMAND") + " [" + Italic("OPTIONS") + "] [" +
         Italic("ARGUMENTS") + "]\n.br\n" + Bold(doc.name) + " " + Bold("--help") + " | " + Bold("--version") + "\n";
  out += ".br\n" + Bold(doc.name) + " " + Italic("COMMAND") + " " + Bold("--help") + "\n";
  out += ".SH DESCRIPTION\n";
  for (const auto& paragraph : doc.description) out += ".PP\n" + Prose(paragraph);
  return out;
}

}  // namespace

std::string ManPage(const ProgramDoc& doc) {
  std::string out = ".\\\" " + doc.name + "(1), generated by `" + doc.name +
                    " man` from its command definitions.\n" + Header(doc);
  out += ".SH OPTIONS\n";
  for (const auto& o : doc.options) out += OptionEntry(o);
  out += ".SH COMMANDS\n";
  for (const auto& cmd : doc.commands) out += CommandSection(doc, cmd);
  out += ".SH \"EXIT STATUS\"\n" + Entries(doc.exit_status, true);
  out += ".SH ENVIRONMENT\n" + Entries(doc.environment, true);
  out += ".SH FILES\n" + Entries(doc.files, false);
  return out;
}

}  // namespace kedb::cli
