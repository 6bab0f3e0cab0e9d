package content

import "gopkg.in/yaml.v3"

// FrontmatterLine returns the line of the file (1-based) on which the
// frontmatter value at keys is written, as the page was read. Keys are
// mapping keys (string) and sequence indexes (int), so
// FrontmatterLine("provenance", "derived_from", 0, "path") finds a pin
// whether it is written in block or flow style, and text elsewhere in the
// frontmatter that happens to hold the same words is never mistaken for
// it. It returns 0 when the page as read has no such value (no
// frontmatter, a key added since), so the caller picks its own fallback.
func (p *Page) FrontmatterLine(keys ...any) int {
	n := p.node
	for _, k := range keys {
		if n != nil && n.Kind == yaml.AliasNode {
			n = n.Alias
		}
		if n == nil {
			return 0
		}
		switch k := k.(type) {
		case string:
			n = mappingValue(n, k)
		case int:
			if n.Kind != yaml.SequenceNode || k < 0 || k >= len(n.Content) {
				return 0
			}
			n = n.Content[k]
		default:
			return 0
		}
	}
	if n == nil {
		return 0
	}
	// yaml.v3 counts lines from the frontmatter's first line, the file's
	// second.
	return n.Line + 1
}

// mappingValue is the value of key in mapping node n, nil when n is no
// mapping or lacks the key.
func mappingValue(n *yaml.Node, key string) *yaml.Node {
	if n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i+1]
		}
	}
	return nil
}
