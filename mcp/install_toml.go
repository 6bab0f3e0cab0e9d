package mcp

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"

	"github.com/BurntSushi/toml"
)

// mergeTOML sets [mcp_servers.<name>] command and args in a Codex
// config.toml. It edits the text rather than re-encoding the document, so
// comments, order and every other table stay as they were; the other keys
// of the entry's own table (env, timeouts) are kept too. The result is
// parsed again and checked before it is returned.
func mergeTOML(old []byte, name, command string, args []string) ([]byte, string, error) {
	var doc map[string]any
	if _, err := toml.Decode(string(old), &doc); err != nil {
		return nil, "", fmt.Errorf("not valid TOML (%v); fix or move the file first", err)
	}
	status := InstallAdded
	if cur, ok := lookupEntry(doc, name); ok {
		if cur["command"] == command && sameArgs(cur["args"], args) {
			return old, InstallUnchanged, nil
		}
		status = InstallUpdated
	}
	lines := []string{"command = " + tomlString(command), "args = " + tomlArray(args)}
	text := string(old)
	header := regexp.MustCompile(`(?m)^[ \t]*\[[ \t]*mcp_servers[ \t]*\.[ \t]*(?:` + regexp.QuoteMeta(name) + `|"` + regexp.QuoteMeta(name) + `")[ \t]*\][ \t]*(?:#.*)?$`)
	var out string
	if loc := header.FindStringIndex(text); loc != nil {
		out = text[:loc[1]] + "\n" + strings.Join(lines, "\n") + keepOtherKeys(text[loc[1]:])
	} else {
		if status == InstallUpdated {
			return nil, "", fmt.Errorf("mcp_servers.%s is defined inline, not as a [mcp_servers.%s] table; edit it by hand", name, name)
		}
		if text != "" && !strings.HasSuffix(text, "\n") {
			text += "\n"
		}
		if text != "" {
			text += "\n"
		}
		out = text + "[mcp_servers." + name + "]\n" + strings.Join(lines, "\n") + "\n"
	}
	var check map[string]any
	if _, err := toml.Decode(out, &check); err != nil {
		return nil, "", fmt.Errorf("could not update the [mcp_servers.%s] table (%v); edit it by hand", name, err)
	}
	if cur, ok := lookupEntry(check, name); !ok || cur["command"] != command || !sameArgs(cur["args"], args) {
		return nil, "", fmt.Errorf("could not update the [mcp_servers.%s] table; edit it by hand", name)
	}
	return []byte(out), status, nil
}

func lookupEntry(doc map[string]any, name string) (map[string]any, bool) {
	servers, _ := doc["mcp_servers"].(map[string]any)
	entry, ok := servers[name].(map[string]any)
	return entry, ok
}

var tableHeader = regexp.MustCompile(`^[ \t]*\[`)
var commandOrArgs = regexp.MustCompile(`^[ \t]*(?:command|args|"command"|"args")[ \t]*=`)

// keepOtherKeys takes the text after the entry's header line and drops its
// command and args assignments (an args array may span lines), up to the
// next table header; the rest is kept as written.
func keepOtherKeys(rest string) string {
	lines := strings.SplitAfter(rest, "\n")
	var b strings.Builder
	inTable, skipping, depth := true, false, 0
	for i, l := range lines {
		if i == 0 {
			b.WriteString(l) // the remainder of the header line: its newline
			continue
		}
		if inTable && !skipping && tableHeader.MatchString(l) {
			inTable = false
		}
		if inTable && !skipping && commandOrArgs.MatchString(l) {
			skipping, depth = true, 0
		}
		if skipping {
			depth += strings.Count(l, "[") - strings.Count(l, "]")
			if depth <= 0 {
				skipping = false
			}
			continue
		}
		b.WriteString(l)
	}
	return b.String()
}

// tomlString quotes s as a TOML basic string; JSON's escapes are TOML's.
func tomlString(s string) string {
	b, _ := marshalNoEscape(s)
	return string(b)
}

func tomlArray(ss []string) string {
	var b bytes.Buffer
	b.WriteByte('[')
	for i, s := range ss {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(tomlString(s))
	}
	b.WriteByte(']')
	return b.String()
}
