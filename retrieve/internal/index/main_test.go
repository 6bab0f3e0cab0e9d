package index

import (
	"os"
	"testing"
)

func TestMain(m *testing.M) {
	// Re-executed by TestBusyAcrossProcesses to open an index from another
	// process (the helper-process pattern of os/exec's tests).
	if dir := os.Getenv(helperEnv); dir != "" {
		helperOpen(dir)
		os.Exit(0)
	}
	code := m.Run()
	closeBenchIndex()
	os.Exit(code)
}
