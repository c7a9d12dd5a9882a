# The README's two commands. Each installs whatever is missing first (see .ci/setup.sh).
.PHONY: serve test
serve:
	./.ci/serve.sh
test:
	./.ci/test.sh
