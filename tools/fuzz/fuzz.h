/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared by the fuzz targets: the libFuzzer entry point every target
 * defines, and the check that turns a broken property into a crash the
 * fuzzer (or the corpus replay) reports.
 */
#ifndef FTNL_FUZZ_H
#define FTNL_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FUZZ_CHECK(cond)						\
	do {								\
		if (!(cond)) {						\
			fprintf(stderr, "%s:%d: property violated: %s\n",	\
				__FILE__, __LINE__, #cond);		\
			abort();					\
		}							\
	} while (0)

/* A reader over the input, returning zeros once it runs out. */
struct fuzz_in {
	const uint8_t *p;
	size_t left;
};

static inline uint8_t fuzz_u8(struct fuzz_in *in)
{
	if (!in->left)
		return 0;
	in->left--;
	return *in->p++;
}

static inline uint16_t fuzz_u16(struct fuzz_in *in)
{
	uint16_t hi = fuzz_u8(in);

	return (uint16_t)(hi << 8 | fuzz_u8(in));
}

static inline uint32_t fuzz_u32(struct fuzz_in *in)
{
	uint32_t hi = fuzz_u16(in);

	return hi << 16 | fuzz_u16(in);
}

static inline uint64_t fuzz_u64(struct fuzz_in *in)
{
	uint64_t hi = fuzz_u32(in);

	return hi << 32 | fuzz_u32(in);
}

#endif /* FTNL_FUZZ_H */
