package io.gridway.cluster;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Records every lead/release of the participants of one test, with timestamps. Thread-safe. */
final class Recorder {
  record Event(String instance, int partition, boolean lead, long generation, long nanos) {}

  private final List<Event> events = new ArrayList<>();
  private final Map<Integer, String> leaders = new HashMap<>();
  private final Map<Integer, Long> generations = new HashMap<>();

  PartitionOwner owner(String instance) {
    return new PartitionOwner() {
      @Override
      public void lead(int partition, long generation) {
        record(new Event(instance, partition, true, generation, System.nanoTime()));
      }

      @Override
      public void release(int partition) {
        record(new Event(instance, partition, false, 0, System.nanoTime()));
      }
    };
  }

  private synchronized void record(Event e) {
    events.add(e);
    if (e.lead()) {
      leaders.put(e.partition(), e.instance());
      generations.put(e.partition(), e.generation());
    } else if (e.instance().equals(leaders.get(e.partition()))) {
      leaders.remove(e.partition());
    }
  }

  /** Partition → instance leading it now (by the callbacks). */
  synchronized Map<Integer, String> leaders() {
    return new TreeMap<>(leaders);
  }

  synchronized long generation(int partition) {
    return generations.getOrDefault(partition, -1L);
  }

  /** Instance → number of partitions it leads. */
  synchronized Map<String, Integer> counts() {
    Map<String, Integer> counts = new TreeMap<>();
    leaders.values().forEach(i -> counts.merge(i, 1, Integer::sum));
    return counts;
  }

  synchronized List<Event> events() {
    return List.copyOf(events);
  }

  /** Times a partition was led by two instances at once: a lead while another instance had not released. */
  synchronized List<String> overlaps() {
    List<String> overlaps = new ArrayList<>();
    Map<Integer, String> holder = new HashMap<>();
    for (Event e : events) {
      if (e.lead()) {
        String previous = holder.put(e.partition(), e.instance());
        if (previous != null && !previous.equals(e.instance())) {
          overlaps.add("partition " + e.partition() + " led by " + e.instance() + " while " + previous + " still led it");
        }
      } else if (e.instance().equals(holder.get(e.partition()))) {
        holder.remove(e.partition());
      }
    }
    return overlaps;
  }

  /** The time of the first lead of {@code partition} by someone other than {@code instance} after {@code since}. */
  synchronized long takenOverAt(int partition, String instance, long since) {
    for (Event e : events) {
      if (e.lead() && e.partition() == partition && !e.instance().equals(instance) && e.nanos() >= since) {
        return e.nanos();
      }
    }
    return -1;
  }
}
