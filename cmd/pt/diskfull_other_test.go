//go:build !linux

package main

import "testing"

// TestIngestOnAFullDisk needs a tmpfs mount (diskfull_test.go); the
// injected write failures of gitstore's tests run everywhere.
func TestIngestOnAFullDisk(t *testing.T) {
	t.Skip("a full disk is simulated with a tmpfs mount, which needs Linux; gitstore's TestFailedWrite* inject the failure instead")
}
