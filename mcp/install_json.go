package mcp

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
)

// member is one key of a JSON object, its value kept as written so that
// the keys Install does not touch keep their order and their values.
type member struct {
	key string
	val json.RawMessage
}

// parseObject reads a JSON object into its members, in order. Empty input
// is an empty object.
func parseObject(data []byte) ([]member, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, nil
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, errors.New("not a JSON object")
	}
	var ms []member
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		key, _ := tok.(string)
		var val json.RawMessage
		if err := dec.Decode(&val); err != nil {
			return nil, err
		}
		ms = append(ms, member{key, val})
	}
	if _, err := dec.Token(); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("data after the JSON object")
	}
	return ms, nil
}

func encodeObject(ms []member) []byte {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, m := range ms {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(m.key)
		b.Write(k)
		b.WriteByte(':')
		b.Write(m.val)
	}
	b.WriteByte('}')
	return b.Bytes()
}

// mergeJSON sets <servers>.<name> to entry in a JSON config file
// (servers is "mcpServers", or VS Code's "servers").
func mergeJSON(old []byte, key, name string, ev []byte) ([]byte, string, error) {
	top, err := parseObject(old)
	if err != nil {
		return nil, "", fmt.Errorf("not valid JSON (%v); fix or move the file first", err)
	}
	status := InstallAdded
	i := indexOf(top, key)
	var servers []member
	if i >= 0 {
		if servers, err = parseObject(top[i].val); err != nil {
			return nil, "", fmt.Errorf("%s is not an object", key)
		}
	}
	if j := indexOf(servers, name); j >= 0 {
		var a, b any
		_ = json.Unmarshal(servers[j].val, &a)
		_ = json.Unmarshal(ev, &b)
		if reflect.DeepEqual(a, b) {
			return old, InstallUnchanged, nil
		}
		servers[j].val, status = ev, InstallUpdated
	} else {
		servers = append(servers, member{name, ev})
	}
	if i >= 0 {
		top[i].val = encodeObject(servers)
	} else {
		top = append(top, member{key, encodeObject(servers)})
	}
	var out bytes.Buffer
	if err := json.Indent(&out, encodeObject(top), "", "  "); err != nil {
		return nil, "", err
	}
	out.WriteByte('\n')
	return out.Bytes(), status, nil
}

func indexOf(ms []member, key string) int {
	for i, m := range ms {
		if m.key == key {
			return i
		}
	}
	return -1
}

func marshalNoEscape(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSpace(b.Bytes()), nil
}
