package org.qsnet.elan3;

import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

/**
 * The Elan3lib facade against ELAN-API.md §1.2.7 (event macros), §1.4.1–§1.4.7 and §4.2: every row
 * below is copied from the catalog's tables, parameters as written there.
 */
class Elan3libSignatureTest
{
    static final String[] CATALOG = {
        // §1.4.1 Lifecycle and attach
        "elan3_init(int rail, E3_Addr mainAllocBase, size mainAllocSize, E3_Addr elanAllocBase, size elanAllocSize) -> ELAN3_CTX*",
        "elan3_set_standard_mappings(ctx) -> int",
        "elan3_set_required_mappings(ctx) -> int",
        "elan3_block_inputter(ctx, int block)",
        "elan3_attach(ctx, ELAN_CAPABILITY*) -> int",
        "elan3_addvp(ctx, int firstVp, ELAN_CAPABILITY*) -> int",
        "elan3_process(ctx) -> int",
        "elan3_detach(ctx)",
        "elan3_fini(ctx)",
        "elan3_control_open(int rail) -> handle (ELAN3_CTX*/void*)",
        "elan3_create(ctl, ELAN_CAPABILITY*) -> int",
        "elan3_control_close(ctl)",
        "elan3_destroy(ctl)",
        "elan3_devinfo(int rail, ELAN3_DEVINFO*) -> int",
        "elan3_get_devinfo(ctx, ELAN_DEVINFO*)",
        "elan3_get_position(ctx, ELAN_POSITION*)",
        "elan3_init_neterr_svc(int dbglvl) -> int",
        "elan3_register_neterr_svc() -> int",
        "elan3_run_neterr_svc() -> int",
        "elan3_load_neterr_svc(int nodeid, char *host) -> int",
        // §1.4.2 Capability and VP helpers
        "elan3_nullcap(ELAN_CAPABILITY*)",
        "elan3_capability_string(cap, char *buf) -> char*",
        "elan3_nvps(cap) -> int",
        "elan3_nlocal(int relNode, cap) -> int",
        "elan3_maxlocal(cap) -> int",
        "elan3_vp2location(int vp, cap) -> ELAN_LOCATION",
        "elan3_location2vp(ELAN_LOCATION, cap) -> int",
        "elan3_nrails(cap) -> int",
        "elan3_rails(cap, int *devs) -> int",
        // §1.4.3 Memory allocation, translation and permissions
        "elan3_allocMain(ctx, int align, size) -> void*",
        "elan3_allocElan(ctx, int align, size) -> sdramaddr_t",
        "elan3_free(ctx, void*)",
        "elan3_freeElan(ctx, sdramaddr_t)",
        "elan3_allocVaddr(ctx, align, size) -> ELAN_ADDR",
        "elan3_main2elan(ctx, void*) -> E3_Addr",
        "elan3_elan2main(ctx, E3_Addr) -> void*",
        "elan3_sdram2elan(ctx, ctx->sdram, sdramaddr_t) -> E3_Addr",
        "elan3_addressable(ctx, void*, size) -> bool",
        "elan3_setperm(ctx, caddr_t main, E3_Addr elan, size, int perm) -> int",
        "elan3_clearperm_main(ctx, caddr_t, size)",
        "elan3_clearperm_elan(ctx, E3_Addr, size)",
        "elan3_clearperm(ctx, E3_Addr, size)",
        // §1.4.4 SDRAM access
        "elan3_write32_sdram(sdram, sdramaddr_t, E3_uint32)",
        "elan3_read32_sdram(sdram, sdramaddr_t) -> E3_uint32",
        "elan3_copy32_to_sdram(sdram, void *mainSrc, sdramaddr_t dst)",
        "elan3_blkcopy64_to_sdram(sdram, void *src, sdramaddr_t dst, size)",
        "elan3_zero_byte_sdram(sdram, sdramaddr_t, size)",
        "E3_WRITE_DMA_SIZE(ctx, sdramaddr_t dma, value)",
        "E3_WRITE_DMA_SOURCE(ctx, sdramaddr_t dma, value)",
        "E3_WRITE_DMA_DEST(ctx, sdramaddr_t dma, value)",
        "E3_WRITE_DMA_SRCEVENT(ctx, sdramaddr_t dma, value)",
        "E3_WRITE_DMA_DESTEVENT(ctx, sdramaddr_t dma, value)",
        // §1.2.7 host-side event macros
        "E3_RESET_BCOPY_BLOCK(blk)",
        "EVENT_BLK_READY(blk)",
        "EVENT_WORD_READY(word)",
        // §1.4.5 Events
        "elan3_initevent(ctx, ev)",
        "elan3_initevent_word(ctx, ev, volatile E3_uint32 *mainWord)",
        "elan3_initevent_main(ctx, ev, sdramaddr_t srcBlk, E3_Event_Blk *dstBlkMain)",
        "elan3_primeevent(ctx, ev, int count)",
        "elan3_setevent(ctx, ev)",
        "elan3_pollevent_word(ctx, volatile E3_uint32 *word, int count) -> bool",
        "elan3_waitevent_word(ctx, ev, word, long how)",
        "elan3_waitevent_blk(ctx, ev, E3_Event_Blk*, long how)",
        "elan3_waitevent(ctx, ev)",
        "elan3_waitdmaevent(ctx, sdramaddr_t dma, ev)",
        "elan3_waitdmaevent0(ctx, dma, ev, sdramaddr_t waitEvent0, int count)",
        // §1.4.6 DMA
        "E3_DMA_TYPE(dataType, DMA_WRITE / DMA_READ, DMA_NORMAL / DMA_QUEUED / DMA_NORMAL_BROADCAST, failCount) -> type word",
        "elan3_local_cookie(ctx, int myVp, int remoteVp) -> E3_uint32",
        "elan3_remote_cookie(ctx, myVp, remoteVp) -> E3_uint32",
        "elan3_putdma(ctx, sdramaddr_t dma)",
        "elan3_putdma_main(ctx, E3_DMA_MAIN *dma, sdramaddr_t scratch)",
        "elan3_getdma_main(ctx, E3_DMA_MAIN*, sdramaddr_t scratch)",
        // §1.4.7 Hardware broadcast
        "elan3_allocatebcastvp(ctx) -> int",
        "elan3_addbcastvp(ctx, int bcastVp, int lowVp, int highVp) -> int",
        // §4.2 RMS, in the application
        "rms_mycap(&capIndex)",
        "rms_getcap(capIndex, &cap)",
    };

    static final Map<String, String> NOT_PROVIDED = Map.of(
        "elan3_destroy", "the catalog has its name only",
        "elan3_get_devinfo", "the catalog does not list ELAN_DEVINFO's fields (elan3_devinfo and elan3_get_position are provided)",
        "elan3_init_neterr_svc", "the network-error resolver daemon: not needed by applications (§1.4.1)",
        "elan3_register_neterr_svc", "the network-error resolver daemon",
        "elan3_run_neterr_svc", "the network-error resolver daemon",
        "elan3_load_neterr_svc", "the network-error resolver daemon");

    static final Set<String> EXTENSIONS = Set.of(
        "errno", "strerror", "perror",  // the status convention of the facades
        "rms_ncaps",                    // named in §4.2 without its arguments
        "elan3_fetchadd", "elan3_testandwrite"); // the NIC's remote atomics, which the catalog does not name

    @Test
    void shouldFollowTheCatalogSignatureForSignature()
    {
        FacadeSignatures.assertMatchesCatalog(Elan3lib.class, FacadeSignatures.parse(CATALOG), NOT_PROVIDED, EXTENSIONS);
    }
}
