package memory

import "context"

// Source yields every record the index should hold; Rebuild reads it from start to end. The
// runtime's source reads the journal (briefs, episodes, work items, deliveries) and the memory
// files. yield's error ends the walk and is returned.
type Source interface {
	Docs(ctx context.Context, yield func(Doc) error) error
}

// SourceFunc adapts a function to Source.
type SourceFunc func(ctx context.Context, yield func(Doc) error) error

// Docs calls f.
func (f SourceFunc) Docs(ctx context.Context, yield func(Doc) error) error { return f(ctx, yield) }

// Sources is a Source yielding the records of each of srcs in turn (nil ones skipped).
func Sources(srcs ...Source) Source {
	return SourceFunc(func(ctx context.Context, yield func(Doc) error) error {
		for _, s := range srcs {
			if s == nil {
				continue
			}
			if err := s.Docs(ctx, yield); err != nil {
				return err
			}
		}
		return nil
	})
}
