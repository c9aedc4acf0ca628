# Sourced by the comparison scripts. jit_ticks PID: CPU ticks (user + system, /proc) of the
# process's JIT compiler threads, to wait until the JIT is quiet before measuring.
jit_ticks() {
  local t sum=0
  for t in /proc/"$1"/task/*; do
    case "$(cat "$t/comm" 2>/dev/null)" in
      C1\ Compiler*|C2\ Compiler*) sum=$((sum + $(awk '{print $14 + $15}' "$t/stat" 2>/dev/null || echo 0))) ;;
    esac
  done
  echo "$sum"
}

# thread_cpu PID: CPU seconds (user + system, /proc) of the process's threads as JSON, grouped by
# name without its trailing digits, '-' and '#' (the event loops together, the workers together).
thread_cpu() {
  python3 - "$1" <<'PY'
import json, os, sys
pid, tick, out = sys.argv[1], os.sysconf('SC_CLK_TCK'), {}
for t in os.listdir(f'/proc/{pid}/task'):
    try:
        name = open(f'/proc/{pid}/task/{t}/comm').read().strip().rstrip('0123456789-#')
        fields = open(f'/proc/{pid}/task/{t}/stat').read().rsplit(')', 1)[1].split()
        out[name] = out.get(name, 0) + (int(fields[11]) + int(fields[12])) / tick
    except OSError:
        pass
print(json.dumps(out))
PY
}
