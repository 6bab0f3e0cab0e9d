package web

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// browser starts headless Chromium for the end-to-end tests, or skips:
// they run with PT_E2E=1 (make e2e, .ci/run) and need Chromium
// ($PT_CHROMIUM, else chromium on the PATH; Debian's package installs it).
// The returned console lists what the pages wrote to the console and the
// browser's log: errors, exceptions, blocked resources, policy violations.
func browser(t *testing.T) (context.Context, *console) {
	t.Helper()
	if os.Getenv("PT_E2E") == "" {
		t.Skip("browser tests run with PT_E2E=1 (make e2e)")
	}
	bin := os.Getenv("PT_CHROMIUM")
	if bin == "" {
		var err error
		if bin, err = exec.LookPath("chromium"); err != nil {
			t.Skip("no chromium on the PATH (apt-get install chromium, or set PT_CHROMIUM)")
		}
	}
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(bin), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck, chromedp.UserDataDir(t.TempDir()), chromedp.WindowSize(1000, 700),
		chromedp.Flag("disable-quic", true), chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true), chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-extensions", true), chromedp.Flag("disable-dev-shm-usage", true),
	}
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelTab := chromedp.NewContext(actx)
	ctx, cancelTime := context.WithTimeout(ctx, 3*time.Minute)
	t.Cleanup(func() {
		cancelTime()
		cancelTab()
		cancelAlloc()
	})
	c := &console{}
	if err := chromedp.Listen(ctx, c.record); err != nil {
		t.Fatalf("start chromium: %v", err)
	}
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(1000, 700)); err != nil {
		t.Fatalf("viewport: %v", err)
	}
	return ctx, c
}

// console collects the messages a browser tab reports.
type console struct {
	mu   sync.Mutex
	msgs []string
}

func (c *console) record(ev any) {
	var m string
	switch ev := ev.(type) {
	case *runtime.EventConsoleAPICalled:
		var args []string
		for _, a := range ev.Args {
			args = append(args, string(a.Value)+a.Description)
		}
		m = fmt.Sprintf("console.%s: %s", ev.Type, strings.Join(args, " "))
	case *runtime.EventExceptionThrown:
		m = "exception: " + ev.ExceptionDetails.Text
		if ev.ExceptionDetails.Exception != nil {
			m += " " + ev.ExceptionDetails.Exception.Description
		}
	case *log.EventEntryAdded:
		m = fmt.Sprintf("log %s %s: %s %s", ev.Entry.Level, ev.Entry.Source, ev.Entry.Text, ev.Entry.URL)
	default:
		return
	}
	c.mu.Lock()
	c.msgs = append(c.msgs, m)
	c.mu.Unlock()
}

// take returns the messages so far and forgets them.
func (c *console) take() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	m := c.msgs
	c.msgs = nil
	return m
}

// do runs browser actions or fails the test; each call has 30 seconds.
func do(t *testing.T, ctx context.Context, what string, steps ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	if err := chromedp.Do(ctx, steps...); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}

// eval evaluates a JavaScript expression in the page.
func eval[T any](t *testing.T, ctx context.Context, expr string) T {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		t.Fatalf("evaluate %s: %v", expr, err)
	}
	return v
}

// shoot saves a screenshot of the viewport as name.png under
// $PT_WEB_SHOTS, when it is set (the screenshots of docs/web.md).
func shoot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	dir := os.Getenv("PT_WEB_SHOTS")
	if dir == "" {
		return
	}
	png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatalf("screenshot %s: %v", name, err)
	}
	if err := os.WriteFile(filepath.Join(dir, name+".png"), png, 0o644); err != nil {
		t.Fatal(err)
	}
}
