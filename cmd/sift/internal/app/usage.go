package app

import (
	"context"

	"github.com/agentsift/sift/core/usage"
	"github.com/agentsift/sift/store"
)

// Usage totals the store's usage rows (usage.Total): the store reads the
// rows, core/usage counts and prices them.
func Usage(ctx context.Context, st *store.Store, opt usage.Options) (usage.Report, error) {
	return usage.Total(opt, func(add func(usage.File) error) error {
		return st.UsageFiles(ctx, string(opt.Agent), func(f store.UsageFile) error { return add(usage.File(f)) })
	})
}
