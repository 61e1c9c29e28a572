"""A scripted agent process for the ``cmd:`` policy's tests: it reads one JSON request per line and
answers each with ``{"reply": ...}``. Modes (first argument): ``last`` (earlier turns get a thought,
the last turn names the menu's last action), ``garbage`` (not JSON), ``exit`` (quits at once),
``silent`` (never answers), ``echo`` (replies the request's step, turn and message count)."""

import json
import sys


def main() -> None:
    mode = sys.argv[1] if len(sys.argv) > 1 else "last"
    if mode == "exit":
        sys.exit(3)
    for line in sys.stdin:
        request = json.loads(line)
        if mode == "silent":
            continue
        if mode == "garbage":
            print("I'd pull machine 2", flush=True)
            continue
        if mode == "echo":
            count = len(request["messages"])
            reply = f"step {request['step']} turn {request['turn']}/{request['turns']}, {count} messages"
        elif request["turn"] < request["turns"]:
            reply = f"Thinking about step {request['step']} of episode {request['episode']}..."
        else:
            reply = f"I choose: {request['actions'][-1]}"
        print(json.dumps({"reply": reply}), flush=True)


if __name__ == "__main__":
    main()
