// Package memory owns an agent's derived memory search index: full-text search over the agent's
// curated memory and runtime evidence (memory/self.md, memory/operator.md, briefs, episodes, work
// items and delivery summaries) and exact retrieval of the original text by an unforgeable
// source_ref.
//
// The index lives in agent_home/.holon/indexes/memory.sqlite3 (SQLite FTS5) and is disposable:
// Open rebuilds it from Options.Source when it is missing, was written by another schema version,
// holds garbage bytes, or the memory.dirty marker beside it says a write may not have reached it. A
// corrupt file found later by Search or Get is rebuilt the same way and the call retried once, so
// the agent never sees an index error, only an answer from the stronger sources.
//
//	ix, err := memory.Open(filepath.Join(home, ".holon", "indexes"), memory.Options{
//		AgentID: id, Source: memory.Sources(journalDocs, memory.FileSource(home, id)),
//	})
//	ix.Upsert(memory.Doc{Kind: memory.KindBrief, Key: briefID, ...})   // after the journal write
//	hits, err := ix.Search(ctx, memory.Query{Text: "数据库 migration", WorkspaceID: ws})
//	got, err := ix.Get(hits[0].SourceRef, 0)                        // exact body, 12,000 chars
//
// Search scope: agent-scoped docs always; plus the docs of Query.WorkspaceID; or every doc with
// Query.AllWorkspaces. Chinese, Japanese and Korean runs are indexed and queried as overlapping
// bigrams (数据库 → 数据 据库) beside the default Unicode word tokenizer, so mixed Chinese/Latin text
// is found either way; the bigrams live only in the FTS projection, and Get and snippets read the
// exact original body.
//
// A source_ref is an HMAC over the agent, kind and key under a per-agent secret kept in
// agent_home/.holon/state/memory_ref.key (outside the disposable index directory), so refs stay
// valid across a rebuild and a model cannot build, alter or borrow one from another agent: Get
// refuses those with ErrBadRef.
//
// An Index is safe for concurrent use. Rebuild holds it exclusively while it runs. memory imports
// no actors, control or node package: the runtime feeds it Docs and asks it questions.
package memory
