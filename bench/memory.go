package bench

import (
	"context"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	memindex "github.com/holon-actors/holon-actors/memory"
)

// MemoryConfig sets the workload of Memory.
type MemoryConfig struct {
	// Dir is the agent home the index is written under (.holon/indexes).
	Dir string
	// Records is how many records the index holds: a full rebuild writes them all.
	Records int
	// Searches is how many timed searches run after the rebuild.
	Searches int
	// TurnOverhead, when set, measures the cost memory maintenance adds to a turn (the runtime's
	// side of memory, outside this package's index; MemoryTurnOverhead); Memory reports it as
	// memory_turn_overhead_ratio, memory_turn_overhead_with_indexing_ratio and, with the
	// spread and the other parts' costs, memory_turn_overhead. Nil leaves the fields out.
	TurnOverhead func(ctx context.Context) (TurnOverhead, error)
}

// DefaultMemoryConfig is 100,000 records and 2,000 searches.
func DefaultMemoryConfig() MemoryConfig {
	return MemoryConfig{Records: 100_000, Searches: 2_000}
}

// Validate reports the first setting that cannot run.
func (c MemoryConfig) Validate() error {
	switch {
	case c.Dir == "":
		return fmt.Errorf("memory bench: no directory")
	case c.Records < 1:
		return fmt.Errorf("memory bench: records is %d, want at least 1", c.Records)
	case c.Searches < 1:
		return fmt.Errorf("memory bench: searches is %d, want at least 1", c.Searches)
	}
	return nil
}

// MemoryResult is what Memory measured.
type MemoryResult struct {
	Records  int `json:"records"`
	Searches int `json:"searches"`
	// RebuildSeconds is the full rebuild's wall time; MemoryIndexRecordsPerSec the records it
	// wrote per second.
	RebuildSeconds           float64 `json:"rebuild_seconds"`
	MemoryIndexRecordsPerSec float64 `json:"memory_index_records_per_sec"`
	// MemoryIndexBytesPerRecord is the index file's size over the records (exact bodies, the
	// full-text projection and its CJK bigrams).
	MemoryIndexBytesPerRecord float64 `json:"memory_index_bytes_per_record"`
	// Search latency over the mixed queries, scoped to one workspace (a fifth across all).
	MemorySearchP50Ms float64 `json:"memory_search_p50_ms"`
	MemorySearchP99Ms float64 `json:"memory_search_p99_ms"`
	MemorySearchMaxMs float64 `json:"memory_search_max_ms"`
	// The same work in process CPU time (0 where /proc is not readable): what the figures above
	// would approach on an idle machine, since on a shared one the wall times include waiting for
	// a core. Rebuild records per CPU second; mean CPU milliseconds per search.
	MemoryIndexRecordsPerCPUSec float64 `json:"memory_index_records_per_cpu_sec"`
	MemorySearchCPUMsMean       float64 `json:"memory_search_cpu_ms_mean"`
	// SearchesWithHits is how many of the searches returned at least one record.
	SearchesWithHits int `json:"searches_with_hits"`
	// MemoryTurnOverheadRatio and MemoryTurnOverheadWithIndexingRatio are MemoryConfig.TurnOverhead's
	// figures (TurnOverhead); absent when not measured.
	MemoryTurnOverheadRatio             *float64 `json:"memory_turn_overhead_ratio,omitempty"`
	MemoryTurnOverheadWithIndexingRatio *float64 `json:"memory_turn_overhead_with_indexing_ratio,omitempty"`
	// MemoryTurnOverhead is the whole measurement: the ratios' spread and what each side cost.
	MemoryTurnOverhead *TurnOverhead `json:"memory_turn_overhead,omitempty"`
}

// Memory rebuilds an agent's memory index of cfg.Records synthetic records (English and
// Chinese words, a Zipf vocabulary so some words are in most records, ten workspaces and
// agent-scoped records) and times cfg.Searches searches of one to three words over it.
func Memory(ctx context.Context, cfg MemoryConfig) (MemoryResult, error) {
	if err := cfg.Validate(); err != nil {
		return MemoryResult{}, err
	}
	res := MemoryResult{Records: cfg.Records, Searches: cfg.Searches}
	dir := filepath.Join(cfg.Dir, ".holon", "indexes")
	ix, err := memindex.Open(dir, memindex.Options{AgentID: "bench-agent"})
	if err != nil {
		return res, err
	}
	defer ix.Close()
	corpus := newMemoryCorpus(cfg.Records)
	cpu0, cpuErr := processCPU(os.Getpid())
	start := time.Now()
	if err := ix.Rebuild(ctx, corpus); err != nil {
		return res, err
	}
	elapsed := time.Since(start)
	cpu1, err := processCPU(os.Getpid())
	if cpuErr == nil && err == nil && cpu1 > cpu0 {
		res.MemoryIndexRecordsPerCPUSec = float64(cfg.Records) / (cpu1 - cpu0).Seconds()
	}
	res.RebuildSeconds = elapsed.Seconds()
	res.MemoryIndexRecordsPerSec = float64(cfg.Records) / elapsed.Seconds()
	size, err := dirBytes(dir)
	if err != nil {
		return res, err
	}
	res.MemoryIndexBytesPerRecord = float64(size) / float64(cfg.Records)

	lat := make([]time.Duration, 0, cfg.Searches)
	cpu1, cpuErr = processCPU(os.Getpid())
	for i := range cfg.Searches {
		q := corpus.query(i)
		t := time.Now()
		hits, err := ix.Search(ctx, q)
		if err != nil {
			return res, fmt.Errorf("search %q: %w", q.Text, err)
		}
		lat = append(lat, time.Since(t))
		if len(hits) > 0 {
			res.SearchesWithHits++
		}
	}
	if cpu2, err := processCPU(os.Getpid()); cpuErr == nil && err == nil {
		res.MemorySearchCPUMsMean = ms(cpu2-cpu1) / float64(cfg.Searches)
	}
	p50, p99, mx := latencySummary(lat)
	res.MemorySearchP50Ms, res.MemorySearchP99Ms, res.MemorySearchMaxMs = ms(p50), ms(p99), ms(mx)
	if cfg.TurnOverhead != nil {
		o, err := cfg.TurnOverhead(ctx)
		if err != nil {
			return res, fmt.Errorf("turn overhead: %w", err)
		}
		res.MemoryTurnOverheadRatio, res.MemoryTurnOverheadWithIndexingRatio = &o.Ratio, &o.WithIndexingRatio
		res.MemoryTurnOverhead = &o
	}
	return res, nil
}

// memoryCorpus generates the bench's records and queries deterministically.
type memoryCorpus struct {
	records int
	words   []string // the Latin vocabulary, most frequent first
	cjk     []string // Chinese words of two to four characters
}

// memoryHan are common characters the Chinese words are drawn from.
const memoryHan = "部署测试数据库迁移记忆搜索索引工作区计划结果发布回滚配置网络证书模型工具审批用户服务器日志错误修复性能内存文件目录代码提交分支合并版本更新安装运行停止重启监控告警指标延迟吞吐队列任务定时器消息事件状态快照恢复备份"

func newMemoryCorpus(records int) *memoryCorpus {
	r := rand.New(rand.NewSource(1))
	c := &memoryCorpus{records: records}
	const syll = "ka lo mi ne ru sa to vi be do fu ga hi jo ku ma no pe ri su te wo ya zu"
	parts := strings.Fields(syll)
	seen := map[string]bool{}
	for len(c.words) < 20_000 {
		n := 2 + r.Intn(3)
		var b strings.Builder
		for range n {
			b.WriteString(parts[r.Intn(len(parts))])
		}
		if w := b.String(); !seen[w] {
			seen[w] = true
			c.words = append(c.words, w)
		}
	}
	han := []rune(memoryHan)
	for range 3_000 {
		n := 2 + r.Intn(3)
		w := make([]rune, n)
		for i := range w {
			w[i] = han[r.Intn(len(han))]
		}
		c.cjk = append(c.cjk, string(w))
	}
	return c
}

// Docs yields the records: kinds in turn, one in ten agent-scoped, the rest in ten workspaces.
func (c *memoryCorpus) Docs(ctx context.Context, yield func(memindex.Doc) error) error {
	r := rand.New(rand.NewSource(2))
	zipf := rand.NewZipf(r, 1.1, 1, uint64(len(c.words)-1))
	kinds := []memindex.Kind{memindex.KindEpisode, memindex.KindBrief, memindex.KindWorkItem, memindex.KindDelivery}
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var b strings.Builder
	for i := range c.records {
		if i%10_000 == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		b.Reset()
		n := 30 + r.Intn(50)
		for j := range n {
			if j > 0 {
				b.WriteByte(' ')
			}
			if r.Intn(5) == 0 {
				b.WriteString(c.cjk[r.Intn(len(c.cjk))])
			} else {
				b.WriteString(c.words[zipf.Uint64()])
			}
		}
		d := memindex.Doc{
			Kind: kinds[i%len(kinds)], Key: fmt.Sprint("r", i), AgentID: "bench-agent",
			Title: c.words[zipf.Uint64()] + " " + c.cjk[r.Intn(len(c.cjk))], Body: b.String(),
			SourcePath: "journal", UpdatedAt: base.Add(time.Duration(i) * time.Minute),
		}
		if i%10 != 0 {
			d.ScopeKind, d.WorkspaceID = memindex.ScopeWorkspace, fmt.Sprint("ws-", i%10)
		}
		if err := yield(d); err != nil {
			return err
		}
	}
	return nil
}

// query is the i-th search: one to three words drawn like the records' words (so some are in
// most records), Chinese words and mixed ones; scoped to a workspace, every fifth to all.
func (c *memoryCorpus) query(i int) memindex.Query {
	r := rand.New(rand.NewSource(int64(1000 + i)))
	zipf := rand.NewZipf(r, 1.1, 1, uint64(len(c.words)-1))
	var words []string
	switch i % 4 {
	case 0:
		words = []string{c.words[zipf.Uint64()]}
	case 1:
		words = []string{c.words[zipf.Uint64()], c.words[zipf.Uint64()]}
	case 2:
		words = []string{c.cjk[r.Intn(len(c.cjk))]}
	default:
		words = []string{c.words[zipf.Uint64()], c.cjk[r.Intn(len(c.cjk))], c.words[r.Intn(len(c.words))]}
	}
	q := memindex.Query{Text: strings.Join(slices.Clip(words), " "), WorkspaceID: fmt.Sprint("ws-", 1+i%9)}
	if i%5 == 0 {
		q.AllWorkspaces = true
	}
	return q
}
