// Package pricing holds the model price table sift estimates cost from when
// a harness prints no cost of its own.
package pricing

// Table is a set of model prices.
type Table struct{}
