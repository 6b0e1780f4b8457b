/*
 * The modes of the broken test subject (broken:MODE), one number each:
 * adapter_broken.c says what modes 1-31 do, adapter_broken_policy.c modes
 * 32 and up (the verdict policy's planted scenarios). harness/subjects/
 * spec.py reads this table (a mode is a line "#define MODE_NAME N").
 */
#ifndef LZ4GATE_ADAPTER_BROKEN_MODES_H
#define LZ4GATE_ADAPTER_BROKEN_MODES_H

#define MODE_write_past_capacity 1
#define MODE_short_return 2
#define MODE_ignore_capacity 3
#define MODE_partial_overshoot 4
#define MODE_bad_bound 5
#define MODE_no_negative_guard 6
#define MODE_frame_reset_noop 7
#define MODE_frame_write_past 8
#define MODE_frame_state_reuse 9
#define MODE_frame_dict_uninit 10
#define MODE_frame_dict_unbounded 11
#define MODE_unlz4_short_flush 12
#define MODE_unlz4_no_padding 13
#define MODE_unlz4_fill_eof_error 14
#define MODE_overread_and_overwrite 15
#define MODE_stream_reset_noop 16
#define MODE_alloc_null_deref 17
#define MODE_frame_mem_cdict_null 18
#define MODE_compress_no_size_guard 19
#define MODE_partial_stops_early 20
#define MODE_compress_flip_last 21
#define MODE_strict_decoders 22
#define MODE_compatible_decoders 23
#define MODE_partial_rejects_cut 24
#define MODE_frequent_and_rare 25
#define MODE_leak_on_error 26
#define MODE_frame_bound_one_block_short 27
#define MODE_frame_block_checksum_early 28
#define MODE_dict_prefix_64k_early 29
#define MODE_stream_history_one_short 30
#define MODE_frame_info_reads_past 31
#define MODE_rejects_one_valid 32
#define MODE_wrong_bytes_right_length 33
#define MODE_compress_fails_in_bound 34
#define MODE_accepts_truncated 35
#define MODE_compress_negative_size_minus_one 36
#define MODE_ub_in_decoder 37
#define MODE_fails_after_many_calls 38

#endif
