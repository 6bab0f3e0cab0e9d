package mcp

import (
	"strings"
	"testing"
)

// missedShapes are secrets the gate let through before it learned their
// shapes, one of each entry; the fake values are built by concatenation so
// that this file does not look like a leak to other scanners.
var missedShapes = map[string]string{
	"GCP service-account key": `{"type": "service_account", "private_key": "-----BEGIN PRIVATE KEY-----\n` +
		"MIIEvQIBADANBgkqhkiG9w0BAQEFAASC" + `BKcwggSjAgEAAoIBAQDq7Pz3Xv9mK2LwR8tYb5\nQx1Zc4Nf7Hj2Kp9Lm3Rt6Vw8Ys0Ab4De6Gh8Jk2\n-----END PRIVATE KEY-----\n"}`,
	"PEM in a blockquote":     "> -----BEGIN RSA PRIVATE KEY-----\n> " + "MIIEpAIBAAKCAQEA" + "3Tz2mr7SZiAMfQyuvBjM9Oi+Zj1n7Xw2Kq8tV4hL\n> -----END RSA PRIVATE KEY-----",
	"Azure connection string": "DefaultEndpointsProtocol=https;AccountName=acme;AccountKey=" + "q8Vt3Lr9ZpKx2WmN7bYcJ4hGd6FsA1eT" + "uR5oXp+/k9Xy2Zq7Lm4Np8Rs1Tv6Wu3A==;EndpointSuffix=core.windows.net",
	"Azure SAS URL":           "https://acme.blob.core.windows.net/c/q3.csv?sv=2022-11-02&sp=r&sig=" + "Zx8Cv6Bn4Ma2Sd0Fg8Hj6Kl4Qw2Er0Ty8Ui6Op4As%3D",
	"short password":          `{"user": "svc", "password": "` + "Tr0ub4d" + `!x"}`,
	"DB_PASSWORD":             "DB_PASSWORD=" + "Summer" + "2024!q",
	"mysql -p":                "mysql -u root -p" + "S3cr" + "etX9 ledger",
	"npm token":               "publish with npm_" + "7Hk2mQ9xLp4Rt8Vw3Zs6Nb1Yc5Fd0Gj2Ke9U",
	"SendGrid key":            "SG." + "ngeVfQFYQlKU0ufo8x5d1A" + ".TwL2iGABf9DHoTf-09kqeF8tAmbihYzrnopKc-1s5cr",
	"Hugging Face token":      "HF_TOKEN=hf_" + "fXptmhjUqTtlJRPmfNhubntzvGcCPqEINw",
	"Telegram bot token":      "https://api.telegram.org/bot" + "5830284712:AA" + "Hdq7Tcvch1vGWJxfSeofSAs0K5PALDsaw/getMe",
	"Stripe test key":         "stripe.api_key = 'sk_test_" + "4eC39HqLyjWDarjtT1zdp7dc'",
}

// TestSecretGateOverMCP: the shapes the gate used to miss are refused by
// ingest_source and file_back_consult alike, and nothing is written.
func TestSecretGateOverMCP(t *testing.T) {
	s := newSpace(t)
	cs := connect(t, s, "test-agent")
	head := git(t, s, "rev-parse", "HEAD")
	for name, text := range missedShapes {
		body := "# Notes\n\nFrom the deploy runbook:\n\n" + text + "\n"
		if res := call(t, cs, ToolIngest, map[string]any{"title": "Deploy notes", "approved_by": "dana", "body": body}); !res.IsError || !strings.Contains(textOf(res), "refusing secret") {
			t.Errorf("ingest_source with a %s: %s", name, textOf(res))
		}
		args := map[string]any{"question": "How is the ledger deployed?", "answer": body, "citations": []string{"sources/ledger-outage-postmortem.md"}}
		if res := call(t, cs, ToolFileBack, args); !res.IsError || !strings.Contains(textOf(res), "refusing secret") {
			t.Errorf("file_back_consult with a %s: %s", name, textOf(res))
		}
	}
	if got := git(t, s, "rev-parse", "HEAD"); got != head {
		t.Errorf("a refused secret moved HEAD %s -> %s", head, got)
	}
}
