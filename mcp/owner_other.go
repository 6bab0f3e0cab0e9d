//go:build !windows

package mcp

// ownerOnly is a no-op where the file mode already says who may read.
func ownerOnly(string) error { return nil }
