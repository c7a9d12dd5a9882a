// A Flink 2.x job exported by `abs-sim flink export` from the ABS Playground scenario
// "@SCENARIO@" (mode @MODE@). The scenario's part is between the two lines of dashes; the rest
// is the same for every scenario. README.md says how to run it.

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.runtime.jobmaster.JobResult;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.minicluster.MiniClusterConfiguration;
import org.apache.flink.runtime.state.FunctionInitializationContext;
import org.apache.flink.runtime.state.FunctionSnapshotContext;
import org.apache.flink.runtime.state.KeyedStateBackend;
import org.apache.flink.runtime.state.StateInitializationContext;
import org.apache.flink.runtime.state.StateSnapshotContext;
import org.apache.flink.runtime.state.VoidNamespace;
import org.apache.flink.runtime.state.VoidNamespaceSerializer;
import org.apache.flink.streaming.api.checkpoint.CheckpointedFunction;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.source.legacy.RichParallelSourceFunction;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.BoundedOneInput;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;

public class AbsJob {
    // ------------------------------------------------------------------------------------
@GENERATED@
    // ------------------------------------------------------------------------------------

    static final TypeInformation<Rec> REC = TypeInformation.of(Rec.class);

    /** Records are keyed by their text: the word (a line, if a line is hash-partitioned). */
    static final KeySelector<Rec, String> WORD = r -> r.text;

    /**
     * What travels between the operators: a line, a word, or a count update (word = count),
     * stamped with the operator that sent it and when (in microseconds since the epoch), so the
     * receiver can hold it until the edge's latency has passed.
     */
    public static final class Rec {
        public static final int LINE = 0, WORD = 1, COUNT = 2;
        public int kind;
        public String text;
        public long count;
        public int from;
        public long sent;

        public Rec() {}

        Rec(int kind, String text, long count, int from) {
            this.kind = kind;
            this.text = text;
            this.count = count;
            this.from = from;
            this.sent = nowMicros();
        }
    }

    static long nowMicros() {
        return ChronoUnit.MICROS.between(Instant.EPOCH, Instant.now());
    }

    /** Sleeps so many ticks of the scenario (TICK_MICROS each). */
    static void sleepTicks(long ticks) throws InterruptedException {
        sleepUntil(nowMicros() + ticks * TICK_MICROS);
    }

    static void sleepUntil(long micros) throws InterruptedException {
        long left = micros - nowMicros();
        if (left > 0) {
            TimeUnit.MICROSECONDS.sleep(left);
        }
    }

    /** The planned failure of this subtask in this attempt, as a count of records, or -1. */
    static long plannedFailure(int op, int subtask, int attempt) {
        for (long[] f : FAILURES) {
            if (f[0] == op && f[1] == subtask && f[2] == attempt) {
                return f[3];
            }
        }
        return -1;
    }

    static RuntimeException failure(String name, int subtask, long taken) {
        return new RuntimeException(
                "planned failure: " + name + "#" + subtask + " fails after " + taken + " records");
    }

    /** The words of a line, as the playground's Split cuts them. */
    static List<String> words(String line) {
        List<String> out = new ArrayList<>();
        StringBuilder word = new StringBuilder();
        line.codePoints()
                .forEach(
                        c -> {
                            if (separates(c)) {
                                if (word.length() > 0) {
                                    out.add(word.toString());
                                    word.setLength(0);
                                }
                            } else {
                                word.appendCodePoint(c >= 'A' && c <= 'Z' ? c + 32 : c);
                            }
                        });
        if (word.length() > 0) {
            out.add(word.toString());
        }
        return out;
    }

    /** ASCII whitespace and punctuation, and the common CJK marks. */
    static boolean separates(int c) {
        return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r'
                || (c >= 33 && c <= 47) || (c >= 58 && c <= 64) || (c >= 91 && c <= 96)
                || (c >= 123 && c <= 126)
                || "，。、；：！？「」（）　".indexOf(c) >= 0;
    }

    /** Writes one result file (the final counts of a Count subtask) into the results folder. */
    static void writeResult(String dir, String file, Map<String, Long> counts) throws IOException {
        StringBuilder json = new StringBuilder("{");
        for (Map.Entry<String, Long> e : counts.entrySet()) {
            if (json.length() > 1) json.append(',');
            json.append('"');
            for (char c : e.getKey().toCharArray()) {
                if (c == '"' || c == '\\') json.append('\\').append(c);
                else if (c < 32) json.append(String.format("\\u%04x", (int) c));
                else json.append(c);
            }
            json.append("\":").append(e.getValue());
        }
        json.append("}\n");
        if (dir == null) {
            System.out.println(file + " " + json);
            return;
        }
        Path tmp = Paths.get(dir, file + ".tmp");
        Files.write(tmp, json.toString().getBytes(StandardCharsets.UTF_8));
        Files.move(tmp, Paths.get(dir, file), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    }

    /**
     * A source: a replayable log of LOG[op] records, its lines over and over. Subtask i of p
     * reads records i, i+p, i+2p ... one every `interval` ticks, then ends (a bounded source). Its offset is checkpointed state, so after
     * a failure it rewinds to the restored checkpoint's offset and reads those lines again.
     */
    static final class Source extends RichParallelSourceFunction<Rec> implements CheckpointedFunction {
        final int op;
        final long interval;
        private volatile boolean running = true;
        private transient ListState<Long> offsetState;
        private long offset;

        Source(int op, long interval) {
            this.op = op;
            this.interval = interval;
        }

        @Override
        public void run(SourceContext<Rec> ctx) throws Exception {
            String[] lines = LINES[op];
            long length = LOG[op];
            int i = getRuntimeContext().getTaskInfo().getIndexOfThisSubtask();
            int p = getRuntimeContext().getTaskInfo().getNumberOfParallelSubtasks();
            int attempt = getRuntimeContext().getTaskInfo().getAttemptNumber();
            long failAt = plannedFailure(op, i, attempt);
            long taken = 0;
            while (running) {
                long line = i + offset * p;
                if (line >= length) {
                    if (failAt >= 0) throw failure(OPERATORS[op], i, taken);
                    return;
                }
                sleepTicks(interval);
                synchronized (ctx.getCheckpointLock()) {
                    if (taken == failAt) throw failure(OPERATORS[op], i, taken);
                    ctx.collect(new Rec(Rec.LINE, lines[(int) (line % lines.length)], 0, op));
                    offset++;
                    taken++;
                }
            }
        }

        @Override
        public void cancel() {
            running = false;
        }

        @Override
        public void snapshotState(FunctionSnapshotContext context) throws Exception {
            offsetState.update(List.of(offset));
        }

        @Override
        public void initializeState(FunctionInitializationContext context) throws Exception {
            offsetState = context.getOperatorStateStore()
                    .getListState(new ListStateDescriptor<>("offset", Long.class));
            for (Long o : offsetState.get()) {
                offset = o;
            }
        }
    }

    /**
     * Every other operator: it holds each record until its edge's latency has passed, is busy
     * `busy` ticks with it, then does what its kind does. A planned failure is an exception
     * thrown by the subtask before it takes the record after the planned number (or at the end
     * of its input, if it takes fewer here), in the attempt the plan names.
     */
    static final class Step extends AbstractStreamOperator<Rec>
            implements OneInputStreamOperator<Rec, Rec>, BoundedOneInput {
        static final int SPLIT = 0, MAP = 1, FILTER = 2, COUNT = 3, UNION = 4, SINK = 5;
        final int op;
        final int kind;
        final long busy;
        final int minLen;
        final boolean transactional;
        final String results;
        private transient ValueState<Long> count;
        private transient ListState<Long> sinkState;
        private transient long received, committed, failAt, taken;
        private transient TreeMap<Long, Long> precommitted;

        Step(int op, int kind, long busy, int minLen, boolean transactional, String results) {
            this.op = op;
            this.kind = kind;
            this.busy = busy;
            this.minLen = minLen;
            this.transactional = transactional;
            this.results = results;
        }

        int subtask() {
            return getRuntimeContext().getTaskInfo().getIndexOfThisSubtask();
        }

        @Override
        public void initializeState(StateInitializationContext context) throws Exception {
            super.initializeState(context);
            if (kind == SINK) {
                sinkState = context.getOperatorStateStore()
                        .getListState(new ListStateDescriptor<>("sink", Long.class));
                List<Long> saved = new ArrayList<>();
                sinkState.get().forEach(saved::add);
                if (saved.size() == 2) {
                    received = saved.get(0);
                    // A transactional sink commits, on restore, what it had pre-committed.
                    committed = transactional ? saved.get(0) : saved.get(1);
                }
            }
        }

        @Override
        public void open() throws Exception {
            super.open();
            if (kind == COUNT) {
                count = getPartitionedState(new ValueStateDescriptor<>("count", Long.class));
            }
            precommitted = new TreeMap<>();
            failAt = plannedFailure(op, subtask(), getRuntimeContext().getTaskInfo().getAttemptNumber());
        }

        @Override
        public void processElement(StreamRecord<Rec> element) throws Exception {
            Rec r = element.getValue();
            sleepUntil(r.sent + LATENCY[r.from][op] * TICK_MICROS);
            if (taken == failAt) throw failure(OPERATORS[op], subtask(), taken);
            taken++;
            sleepTicks(busy);
            switch (kind) {
                case SPLIT:
                    if (r.kind == Rec.LINE) {
                        for (String w : words(r.text)) emit(new Rec(Rec.WORD, w, 0, op));
                    } else {
                        emit(new Rec(r.kind, r.text, r.count, op));
                    }
                    break;
                case FILTER:
                    if (r.kind == Rec.LINE || r.text.codePointCount(0, r.text.length()) >= minLen) {
                        emit(new Rec(r.kind, r.text, r.count, op));
                    }
                    break;
                case COUNT:
                    Long n = count.value();
                    long next = (n == null ? 0 : n) + 1;
                    count.update(next);
                    emit(new Rec(Rec.COUNT, r.text, next, op));
                    break;
                case SINK:
                    received++;
                    if (!transactional) committed = received;
                    break;
                default:
                    emit(new Rec(r.kind, r.text, r.count, op));
            }
        }

        private void emit(Rec r) {
            output.collect(new StreamRecord<>(r));
        }

        @Override
        public void snapshotState(StateSnapshotContext context) throws Exception {
            super.snapshotState(context);
            if (kind == SINK) {
                sinkState.update(List.of(received, committed));
                precommitted.put(context.getCheckpointId(), received);
            }
        }

        @Override
        public void notifyCheckpointComplete(long checkpointId) throws Exception {
            super.notifyCheckpointComplete(checkpointId);
            Long upTo = null;
            while (!precommitted.isEmpty() && precommitted.firstKey() <= checkpointId) {
                upTo = precommitted.pollFirstEntry().getValue();
            }
            if (upTo != null && transactional) committed = upTo;
        }

        @Override
        public void endInput() throws Exception {
            if (failAt >= 0) throw failure(OPERATORS[op], subtask(), taken);
            if (kind != COUNT) return;
            Map<String, Long> counts = new TreeMap<>();
            KeyedStateBackend<String> keyed = getKeyedStateBackend();
            keyed.applyToAllKeys(
                    VoidNamespace.INSTANCE,
                    VoidNamespaceSerializer.INSTANCE,
                    new ValueStateDescriptor<>("count", Long.class),
                    (key, state) -> counts.put(key, state.value()));
            writeResult(results, "counts-" + op + "-" + subtask() + ".json", counts);
        }
    }

    /**
     * Usage: AbsJob [--local] [--port N] [--results DIR]
     *
     * <p>Without --local the job is submitted to the environment it runs in (`flink run`).
     * With --local it starts its own Flink (a MiniCluster) with the REST API on 127.0.0.1:N
     * (default: any free port) and prints "ABS-REST url", "ABS-JOB id", then "ABS-END status"
     * when the job has ended; the cluster stays up, for the REST API's final figures, until
     * stdin closes (at most 10 minutes). Count subtasks write their final counts into DIR
     * (without it, to stdout).
     */
    public static void main(String[] args) throws Exception {
        boolean local = false;
        String port = "0";
        String results = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--local": local = true; break;
                case "--port": port = args[++i]; break;
                case "--results": results = args[++i]; break;
                default: throw new IllegalArgumentException("unknown argument " + args[i]);
            }
        }
        if (results != null) {
            Files.createDirectories(Paths.get(results));
        }
        Configuration conf = configuration();
        if (!local) {
            StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
            build(env, results);
            env.execute(JOB_NAME);
            return;
        }
        conf.setString("rest.bind-address", "127.0.0.1");
        conf.setString("rest.address", "127.0.0.1");
        conf.setString("rest.port", port);
        conf.setString("web.checkpoints.history", "100000");
        // The REST API caches a job's figures this long (3 s by default: longer than a job).
        conf.setString("web.refresh-interval", "100");
        MiniCluster cluster = new MiniCluster(new MiniClusterConfiguration.Builder()
                .setConfiguration(conf)
                .setNumTaskManagers(1)
                .setNumSlotsPerTaskManager(SLOTS)
                .build());
        try {
            cluster.start();
            System.out.println("ABS-REST " + cluster.getRestAddress().get());
            StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
            build(env, results);
            JobID id = cluster.submitJob(env.getStreamGraph().getJobGraph()).get().getJobID();
            System.out.println("ABS-JOB " + id);
            JobResult result = cluster.requestJobResult(id).get();
            System.out.println("ABS-END " + result.getJobStatus().map(Object::toString).orElse("UNKNOWN"));
            System.out.flush();
            // Stays up until stdin closes (whoever started it has read the REST API).
            Thread stdin = new Thread(() -> {
                try {
                    while (System.in.read() >= 0) {}
                } catch (IOException e) {
                    // closed
                }
            });
            stdin.setDaemon(true);
            stdin.start();
            stdin.join(600_000);
        } finally {
            cluster.closeAsync().get(30, TimeUnit.SECONDS);
        }
    }
}
