"""A scripted agent process for tests: it says YES, thinks once, turns left twice and stops."""

import json
import sys

SCRIPT = ["YES", "Thought: I will look around.", "Act: turn_left", "Act: turn_left", "Act: stop"]


def main() -> None:
    for line in sys.stdin:
        request = json.loads(line)
        assert request["messages"][0]["role"] == "system"
        print(json.dumps({"reply": SCRIPT[min(request["step"] - 1, len(SCRIPT) - 1)]}), flush=True)


if __name__ == "__main__":
    main()
