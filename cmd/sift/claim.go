package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"time"

	"github.com/agentsift/sift/cmd/sift/internal/app"
	"github.com/agentsift/sift/core/config"

	"github.com/agentsift/sift/core/review"
	"github.com/agentsift/sift/core/textsafe"
)

// runClaim implements `sift claim SESSION [--reviewer R] [--minutes N]`
// (claim a session for review, or renew one's own claim) and `sift claim
// --release SESSION` (end one's own claim). A session another reviewer
// holds is refused, naming them.
func runClaim(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("claim", flag.ContinueOnError)
	fs.SetOutput(stderr)
	sf := addStoreFlags(fs)
	reviewer := fs.String("reviewer", "", "reviewer id (default: the configuration's Reviewer, else $USER)")
	release := fs.Bool("release", false, "end your claim on the session")
	minutes := fs.Int("minutes", 0, "how long the claim holds (default: the configuration's ClaimMinutes, 30)")
	pos, err := parseArgs(fs, args, 1)
	if err != nil {
		return fail(stderr, "claim", fmt.Errorf("%w (usage: sift claim SESSION [--release])", err))
	}
	switch {
	case *minutes < 0:
		return fail(stderr, "claim", fmt.Errorf("--minutes %d: want a positive number of minutes", *minutes))
	case *release && *minutes != 0:
		return fail(stderr, "claim", errors.New("--release takes no --minutes"))
	}
	st, err := sf.Open()
	if err != nil {
		return fail(stderr, "claim", err)
	}
	defer st.Close()
	who := reviewerOf(*reviewer, sf.Cfg.Reviewer)
	ctx := context.Background()
	key, err := st.ResolveSession(ctx, pos[0])
	if err != nil {
		return fail(stderr, "claim", err)
	}
	name := textsafe.Inert(key.String())
	if *release {
		if err := (app.Store{Store: st}).Release(ctx, key, who); err != nil {
			if errors.Is(err, review.ErrNotClaimed) {
				return fail(stderr, "claim", fmt.Errorf("%s is not claimed", name))
			}
			return fail(stderr, "claim", err)
		}
		fmt.Fprintf(stdout, "released %s by %s\n", name, textsafe.Inert(who))
		return 0
	}
	ttl := sf.Cfg.ClaimTTL()
	if *minutes > 0 {
		ttl = time.Duration(min(*minutes, config.ClaimMinutesMax)) * time.Minute
	}
	c, err := (app.Store{Store: st}).Claim(ctx, key, who, ttl)
	if err != nil {
		return fail(stderr, "claim", err)
	}
	fmt.Fprintf(stdout, "claimed %s by %s until %s\n", name, textsafe.Inert(who), c.ExpiresAt.Local().Format("2006-01-02 15:04"))
	return 0
}
