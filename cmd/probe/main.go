package main

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/agentsift/sift/core/review"
	"github.com/agentsift/sift/store"
)

func main() {
	st, err := store.Open(os.Args[1])
	if err != nil {
		panic(err)
	}
	for _, s := range os.Args[2:] {
		for _, count := range []bool{false, true} {
			t := time.Now()
			p, err := st.ListSessions(context.Background(), review.Query{Search: s, Typing: true, Sort: review.SortTriage, Limit: 111, Count: count})
			fmt.Printf("%q count=%v: %d rows total %d in %v err %v\n", s, count, len(p.Sessions), p.Total, time.Since(t), err)
		}
		t := time.Now()
		f, u, err := st.Counts(context.Background(), review.Query{Search: s, Typing: true})
		fmt.Printf("   counts %d %d %v %v\n", f, u, time.Since(t), err)
	}
}
