// A worker of docs/worker-protocol.md (version 1) serving one Weka 3.6 classifier.
//
// Licence: GPL-2.0-or-later (it links Weka, which is GPL); see README.md in this folder.
//
// The runner (`kind = "weka"`, crates/learners/src/worker/weka.rs) compiles this file against
// weka.jar and starts it as `java -cp CLASSES:weka.jar WekaWorker`. HELLO's options are a flat
// JSON object {"classifier": CLASS, "options": OPTIONS, "source_sha256": HASH}. Each DATASET
// becomes a Weka header (`Instances`, the class last, nominal values in the order sent, which
// is the dataset's declared order); each row arrives once as a Weka `Instance` of that header;
// a unit copies its rows into fresh `Instances` by index, builds a fresh classifier from
// CLASS and OPTIONS, and answers with `distributionForInstance` of each test row. Only Weka's
// public API is called. Anything Weka prints goes to standard error: standard output carries
// the frames alone.

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import weka.classifiers.Classifier;
import weka.core.Attribute;
import weka.core.Capabilities;
import weka.core.FastVector;
import weka.core.Instance;
import weka.core.Instances;
import weka.core.Utils;
import weka.core.WeightedInstancesHandler;

public class WekaWorker {
    static final int VERSION = 1;
    static final int HELLO = 0x01, DATASET = 0x02, ROWS = 0x03, FIT_PREDICT = 0x04, FORGET = 0x05, BYE = 0x06;
    static final int WELCOME = 0x81, PROBABILITIES = 0x82, ERROR = 0x83;

    /** One dataset slot: its Weka header and the rows received, by index. */
    static final class Slot {
        final Instances header;
        final int numAttributes;
        final Map<Long, Instance> rows = new HashMap<>();

        Slot(Instances header, int numAttributes) {
            this.header = header;
            this.numAttributes = numAttributes;
        }
    }

    private final DataInputStream in;
    private final OutputStream out;
    private final Map<Long, Slot> slots = new HashMap<>();
    private String className;
    private String[] options;

    WekaWorker(DataInputStream in, OutputStream out) {
        this.in = in;
        this.out = out;
    }

    public static void main(String[] args) throws Exception {
        OutputStream frames = new BufferedOutputStream(new FileOutputStream(FileDescriptor.out), 1 << 16);
        System.setOut(System.err);
        DataInputStream in = new DataInputStream(new BufferedInputStream(System.in, 1 << 16));
        System.exit(new WekaWorker(in, frames).serve());
    }

    /** Answers frames until BYE or the end of standard input; the exit status. */
    int serve() throws IOException {
        while (true) {
            byte[] header = new byte[4];
            if (!readFully(header, true)) return 0;
            long length = ByteBuffer.wrap(header).order(ByteOrder.LITTLE_ENDIAN).getInt() & 0xffffffffL;
            if (length < 1) throw new IOException("a frame of length 0 from the runner");
            byte[] frame = new byte[(int) length];
            readFully(frame, false);
            ByteBuffer body = ByteBuffer.wrap(frame, 1, frame.length - 1).slice().order(ByteOrder.LITTLE_ENDIAN);
            int type = frame[0] & 0xff;
            switch (type) {
                case HELLO: if (!hello(body)) return 1; break;
                case DATASET: dataset(body); break;
                case ROWS: rows(body); break;
                case FIT_PREDICT: fitPredict(body); break;
                case FORGET: slots.remove(u32(body)); break;
                case BYE: return 0;
                default: throw new IOException("unknown frame type " + type);
            }
        }
    }

    /** Reads exactly buffer.length bytes; false at a clean end of input when allowed. */
    private boolean readFully(byte[] buffer, boolean endAllowed) throws IOException {
        int done = 0;
        while (done < buffer.length) {
            int count = in.read(buffer, done, buffer.length - done);
            if (count < 0) {
                if (endAllowed && done == 0) return false;
                throw new EOFException("standard input ended inside a frame");
            }
            done += count;
        }
        return true;
    }

    /** HELLO: checks the protocol version, the class and its options; WELCOME or ERROR. */
    private boolean hello(ByteBuffer body) throws IOException {
        long version = u32(body);
        if (version != VERSION) {
            send(ERROR, string("the Weka worker speaks protocol version " + VERSION + ", the runner " + version));
            return false;
        }
        Map<String, String> hello;
        Classifier classifier;
        try {
            hello = FlatJson.parse(str(body));
            className = hello.getOrDefault("classifier", "");
            String given = hello.getOrDefault("options", "");
            options = Utils.splitOptions(given);
            classifier = Classifier.forName(className, options.clone());
        } catch (Exception error) {
            send(ERROR, string(describe(error)));
            return false;
        }
        String identity = identity(hello, classifier);
        ByteBuffer welcome = buffer(8);
        welcome.putInt(VERSION).putInt(capabilities(classifier));
        send(WELCOME, concat(welcome.array(), string(identity)));
        return true;
    }

    /** The capability bits of the protocol, from Weka's own capabilities of the classifier. */
    static int capabilities(Classifier classifier) {
        Capabilities weka = classifier.getCapabilities();
        int bits = 0;
        if (weka.handles(Capabilities.Capability.NOMINAL_ATTRIBUTES)) bits |= 1;
        if (weka.handles(Capabilities.Capability.MISSING_VALUES)) bits |= 2;
        if (weka.handles(Capabilities.Capability.NOMINAL_CLASS)) bits |= 4;
        if (classifier instanceof WeightedInstancesHandler) bits |= 8;
        return bits;
    }

    /** Everything the outputs depend on besides the unit: Weka's and Java's versions, the class,
     * its options (as given and as the classifier reports them) and this source's hash. */
    private String identity(Map<String, String> hello, Classifier classifier) {
        return "{\"worker\":\"weka\",\"weka\":" + FlatJson.quote(weka.core.Version.VERSION)
            + ",\"java\":" + FlatJson.quote(System.getProperty("java.version"))
            + ",\"classifier\":" + FlatJson.quote(className)
            + ",\"options\":" + FlatJson.quote(hello.getOrDefault("options", ""))
            + ",\"resolved_options\":" + FlatJson.quote(Utils.joinOptions(classifier.getOptions()))
            + ",\"source_sha256\":" + FlatJson.quote(hello.getOrDefault("source_sha256", "")) + "}";
    }

    /** DATASET: the slot's Weka header, the class attribute last. */
    private void dataset(ByteBuffer body) {
        long slot = u32(body);
        int count = (int) u32(body);
        FastVector attributes = new FastVector(count + 1);
        for (int a = 0; a < count; a++) {
            String name = str(body);
            int kind = body.get() & 0xff;
            attributes.addElement(kind == 1 ? new Attribute(name, levels(body)) : new Attribute(name));
        }
        String className = str(body);
        attributes.addElement(new Attribute(className, levels(body)));
        Instances header = new Instances("slot" + slot, attributes, 0);
        header.setClassIndex(count);
        slots.put(slot, new Slot(header, count));
    }

    private FastVector levels(ByteBuffer body) {
        int count = (int) u32(body);
        FastVector values = new FastVector(count);
        for (int v = 0; v < count; v++) values.addElement(str(body));
        return values;
    }

    /** ROWS: each row once as a Weka instance of the slot's header (NaN is Weka's missing). */
    private void rows(ByteBuffer body) {
        Slot slot = slots.get(u32(body));
        long count = body.getLong();
        long[] ids = new long[(int) count];
        for (int r = 0; r < count; r++) ids[r] = body.getLong();
        for (int r = 0; r < count; r++) {
            double[] values = new double[slot.numAttributes + 1];
            for (int a = 0; a < slot.numAttributes; a++) {
                double value = body.getDouble();
                values[a] = Double.isNaN(value) ? Instance.missingValue() : value;
            }
            values[slot.numAttributes] = Instance.missingValue();
            Instance instance = new Instance(1.0, values);
            instance.setDataset(slot.header);
            slot.rows.put(ids[r], instance);
        }
    }

    /** FIT_PREDICT: a fresh classifier on the training rows; PROBABILITIES or ERROR. */
    private void fitPredict(ByteBuffer body) throws IOException {
        Slot slot = slots.get(u32(body));
        body.getLong(); // the seed: Weka's learners take theirs from their options (-S)
        int n = (int) body.getLong();
        long[] train = new long[n];
        for (int i = 0; i < n; i++) train[i] = body.getLong();
        int[] classes = new int[n];
        for (int i = 0; i < n; i++) classes[i] = body.getInt();
        double[] weights = new double[n];
        for (int i = 0; i < n; i++) weights[i] = body.getDouble();
        int m = (int) body.getLong();
        long[] test = new long[m];
        for (int i = 0; i < m; i++) test[i] = body.getLong();
        int numClasses = slot.header.numClasses();
        try {
            Instances data = new Instances(slot.header, n);
            for (int i = 0; i < n; i++) {
                Instance row = (Instance) slot.rows.get(train[i]).copy();
                row.setValue(slot.numAttributes, classes[i]);
                row.setWeight(weights[i]);
                data.add(row);
            }
            Classifier classifier = Classifier.forName(className, options.clone());
            classifier.buildClassifier(data);
            ByteBuffer answer = buffer(12 + 8L * m * numClasses);
            answer.putLong(m).putInt(numClasses);
            for (int i = 0; i < m; i++) {
                double[] distribution = classifier.distributionForInstance(slot.rows.get(test[i]));
                put(answer, distribution, numClasses);
            }
            send(PROBABILITIES, answer.array());
        } catch (Exception error) {
            send(ERROR, string(describe(error)));
        }
    }

    /** One row of probabilities; a distribution of all zeros (Weka's "no prediction") as uniform. */
    private static void put(ByteBuffer answer, double[] distribution, int numClasses) {
        double sum = 0;
        for (double p : distribution) sum += p;
        for (int c = 0; c < numClasses; c++) {
            answer.putDouble(sum > 0 ? distribution[c] : 1.0 / numClasses);
        }
    }

    private static String describe(Exception error) {
        StringWriter trace = new StringWriter();
        error.printStackTrace(new PrintWriter(trace));
        String message = error.getMessage() != null ? error.getMessage() : error.toString();
        System.err.print(trace);
        System.err.flush();
        return error.getClass().getName() + ": " + message;
    }

    private void send(int type, byte[] body) throws IOException {
        ByteBuffer header = buffer(5);
        header.putInt(body.length + 1).put((byte) type);
        out.write(header.array());
        out.write(body);
        out.flush();
    }

    private static ByteBuffer buffer(long size) {
        return ByteBuffer.allocate((int) size).order(ByteOrder.LITTLE_ENDIAN);
    }

    private static long u32(ByteBuffer body) {
        return body.getInt() & 0xffffffffL;
    }

    private static String str(ByteBuffer body) {
        byte[] bytes = new byte[(int) u32(body)];
        body.get(bytes);
        return new String(bytes, StandardCharsets.UTF_8);
    }

    private static byte[] string(String text) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        ByteBuffer field = buffer(4 + bytes.length);
        field.putInt(bytes.length).put(bytes);
        return field.array();
    }

    private static byte[] concat(byte[] first, byte[] second) {
        byte[] both = new byte[first.length + second.length];
        System.arraycopy(first, 0, both, 0, first.length);
        System.arraycopy(second, 0, both, first.length, second.length);
        return both;
    }
}
