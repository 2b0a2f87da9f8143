package agents

// unknownParser reads a stream of no known shape: every line is kept as a
// raw event by the driver.
type unknownParser struct{}

func (unknownParser) Kind() Kind         { return Unknown }
func (unknownParser) Claims([]byte) bool { return false }
func (unknownParser) NewStream() Stream  { return UnknownStream{} }

// EndsWithResult implements Parser: nothing is known of the stream.
func (unknownParser) EndsWithResult() bool { return false }

type UnknownStream struct{}

func (UnknownStream) Line(Line, Emit) bool { return false }
func (UnknownStream) Finish(Emit)          {}
