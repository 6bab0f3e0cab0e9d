package spacegen

// vocabulary is the word pool of generated pages: the words of a team's
// engineering notes, so that search over generated spaces behaves like search
// over real ones (shared stems, common and rare words).
var vocabulary = []string{
	"the", "a", "to", "of", "and", "in", "for", "is", "on", "that", "with", "we", "it", "be", "this", "as", "by", "are", "from", "at",
	"service", "deploy", "cluster", "index", "query", "latency", "storage", "cache", "release", "incident", "postmortem", "rollback",
	"database", "schema", "migration", "replica", "shard", "leader", "election", "quorum", "timeout", "retry", "backoff", "queue",
	"worker", "scheduler", "cron", "batch", "commit", "branch", "merge", "review", "approval", "owner", "oncall", "pager", "alert",
	"metric", "dashboard", "trace", "log", "budget", "error", "availability", "region", "zone", "failover", "backup", "restore",
	"snapshot", "compaction", "throughput", "capacity", "quota", "limit", "rate", "token", "auth", "session", "cookie", "header",
	"proxy", "gateway", "ingress", "load", "balancer", "dns", "certificate", "rotation", "secret", "vault", "policy", "role",
	"permission", "audit", "compliance", "customer", "tenant", "billing", "invoice", "feature", "flag", "experiment", "rollout",
	"canary", "staging", "production", "pipeline", "build", "test", "flaky", "coverage", "lint", "format", "style", "convention",
	"decision", "tradeoff", "design", "proposal", "rfc", "meeting", "notes", "action", "item", "followup", "deadline", "quarter",
	"roadmap", "milestone", "planning", "estimate", "risk", "dependency", "upgrade", "version", "deprecation", "compatibility",
	"api", "endpoint", "client", "server", "protocol", "grpc", "http", "json", "yaml", "config", "default", "override", "setting",
	"kafka", "postgres", "redis", "kubernetes", "terraform", "helm", "docker", "image", "registry", "artifact", "binary", "package",
	"memory", "cpu", "disk", "network", "bandwidth", "packet", "connection", "pool", "thread", "goroutine", "lock", "mutex", "race",
	"deadlock", "contention", "profile", "benchmark", "regression", "optimization", "allocation", "garbage", "collector", "heap",
	"search", "ranking", "relevance", "embedding", "vector", "document", "page", "wiki", "summary", "topic", "spoke", "hub",
	"lesson", "learned", "root", "cause", "mitigation", "remediation", "timeline", "impact", "severity", "detection", "response",
	"ownership", "handoff", "escalation", "runbook", "playbook", "checklist", "onboarding", "documentation", "glossary", "faq",
	"because", "therefore", "however", "instead", "always", "never", "usually", "sometimes", "before", "after", "during", "until",
	"should", "must", "may", "will", "can", "could", "would", "not", "only", "also", "more", "less", "most", "least", "each",
	"every", "some", "many", "few", "new", "old", "fast", "slow", "large", "small", "stable", "unstable", "safe", "unsafe",
	"consistent", "eventual", "strong", "weak", "idempotent", "atomic", "durable", "transient", "partial", "complete",
	"stripe", "webhook", "payment", "refund", "ledger", "reconciliation", "export", "import", "report", "analytics", "warehouse",
	"etl", "stream", "window", "aggregation", "join", "partition", "key", "value", "column", "row", "table", "view", "materialized",
	"frontend", "backend", "mobile", "android", "ios", "browser", "react", "bundle", "asset", "cdn", "edge", "origin", "purge",
}
