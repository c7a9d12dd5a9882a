# The README's two commands. Each installs whatever is missing first (see .ci/setup.sh).
.PHONY: serve test fuzz
serve:
	./.ci/serve.sh
test:
	./.ci/test.sh
# A long fuzzing run of every reader of outside input (tests/fuzz.rs): 50,000 cases each
# unless FUZZ_CASES says otherwise. `make test` runs a short one.
fuzz:
	FUZZ_CASES=$${FUZZ_CASES:-50000} cargo test --locked --release --test fuzz -- --nocapture
