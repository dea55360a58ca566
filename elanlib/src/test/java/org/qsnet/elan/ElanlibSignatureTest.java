package org.qsnet.elan;

import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.qsnet.elan3.FacadeSignatures;

/**
 * The Elanlib facade against ELAN-API.md §2.2–§2.5 and §2.7–§2.11 (libelan 1.4.8–1.4.14, the
 * version §2.14 recommends): every row below is copied from the catalog's tables, parameters as
 * written there; where the catalog gives several versions the 1.4.8 form is the one copied.
 */
class ElanlibSignatureTest
{
    static final String[] CATALOG = {
        // §2.2 Initialisation, version and teardown
        "elan_baseInit(ELAN_FLAGS flags) -> ELAN_BASE*",
        "elan_init(0) -> ELAN_STATE*",
        "elan_generateCapability(const char *capString) -> int",
        "elan_getenvCap(ELAN_CAPABILITY*, int rail) -> int",
        "elan_version() -> char*",
        "elan_checkVersion(const char *ELAN_VERSION) -> bool",
        "elan_enable_network(ELAN_STATE*)",
        "elan_disable_network(ELAN_STATE*)",
        "elan_fini(ELAN_STATE*, ELAN_GROUP*, LIBELAN_FINI_GROUP)",
        "elan_deviceCheck(ELAN_STATE*)",
        "elan_addPollFn(ELAN_STATE*, ELAN_POLLFN fn, void *handle)",
        "elan_addProgressFn(state, ELAN_PROGFN, handle)",
        "elan_clock(ELAN_STATE*) -> nanoseconds",
        // §2.3
        "elan_nRails(state) -> int",
        // §2.4 Events
        "elan_wait(ELAN_EVENT*, long how)",
        "elan_poll(ELAN_EVENT*, long how) -> bool",
        "elan_done(ELAN_EVENT*, long how) -> bool",
        "elan_link(ELAN_EVENT *a, ELAN_EVENT *b) -> ELAN_EVENT*",
        "elan_putWaitAll(ELAN_STATE*, long how)",
        "elan_getWaitAll(ELAN_STATE*, long how)",
        // §2.5 Memory
        "elan_allocMain(ELAN_STATE*, int align, size) -> void*",
        "elan_allocElan(state, align, size) -> SDRAM handle (void*/ADDR_SDRAM)",
        "elan_free(state, void*)",
        "elan_freeElan(state, sdram)",
        "elan_gallocMain(ELAN_BASE*, ELAN_GROUP*, int align, size) -> void*",
        "elan_gallocElan(base, group, align, size)",
        "elan_gallocQueue(base, group) -> ELAN_QUEUE*",
        "elan_gallocFree(base, void*)",
        "elan_allocQueue(ELAN_STATE*) -> ELAN_QUEUE*",
        "elan_main2elan(state, x)",
        "elan_elan2main(state, x)",
        "elan_sdram2elan(state, x)",
        "elan_elan2sdram(state, x)",
        "elan_addressable(state, void*, size) -> bool",
        "elan_addMapping()",
        // §2.7 Queues, split API
        "elan_queueTxInit(ELAN_STATE*, ELAN_QUEUE*, int rail, ELAN_FLAGS flags) -> ELAN_QUEUE_TX*",
        "elan_queueRxInit(state, ELAN_QUEUE*, int nSlots, int slotSize, int rail, ELAN_FLAGS flags) -> ELAN_QUEUE_RX*",
        "elan_queueTx(ELAN_QUEUE_TX*, int destVp, void *buf, size_t len, int rail) -> ELAN_EVENT*",
        "elan_queueRxPoll(ELAN_QUEUE_RX*, long how) -> bool",
        "elan_queueRxWait(ELAN_QUEUE_RX*, void *buf /*or NULL*/, long how) -> void*",
        "elan_queueRxComplete(ELAN_QUEUE_RX*)",
        "elan_queueMaxSlotSize(ELAN_STATE*) -> int",
        // §2.7 main-queue API (with the flags argument of 1.4.8)
        "elan_mainQueueInit(ELAN_STATE*, ELAN_QUEUE*, int nSlots, int slotSize, ELAN_FLAGS mqueue_flags) -> ELAN_MAIN_QUEUE*",
        "elan_queueReq(ELAN_MAIN_QUEUE*, int destVp, void *buf, size_t len)",
        "elan_queueHaveReq(mq) -> bool",
        "elan_queueWait(mq, void *buf, long how)",
        // §2.8 One-sided put and get (putgetInit: the 1.4.8 form)
        "elan_put(ELAN_STATE*, void *localSrc, void *remoteDst, size_t len, int destVp) -> ELAN_EVENT*",
        "elan_get(ELAN_STATE*, void *remoteSrc, void *localDst, size_t len, int srcVp) -> ELAN_EVENT*",
        "elan_putgetInit(state, void *qMem, smallPut, splitPut, splitGet, throttle, flags) -> ELAN_PGCTRL*",
        "elan_doput(ELAN_PGCTRL*, src, dst, void *reserved /*NULL*/, size_t len, int vp, int rail) -> ELAN_EVENT*",
        "elan_doget(ELAN_PGCTRL*, src, dst, len, vp, rail) -> ELAN_EVENT*",
        "elan_putv(ELAN_PGCTRL*, src[], dst[], lens, int count, int vp) -> ELAN_EVENT*",
        "elan_getv(ELAN_PGCTRL*, src[], dst[], lens, int count, int vp) -> ELAN_EVENT*",
        "elan_pgvGlobalMemSize(state) -> size",
        "elan_pgsGlobalMemSize(state) -> size",
        // §2.9 Collectives
        "elan_gsync(ELAN_GROUP*)",
        "elan_hgsync(ELAN_GROUP*)",
        "elan_bcast(ELAN_GROUP*, void *buf, size_t len, int root, int flags)",
        "elan_hbcast(group, buf, len, root, flags)",
        "elan_reduce(ELAN_GROUP*, void *src, void *dst, int dataTypeSize, int nElem, ELAN_REDUCER fn, void *fnHandle, "
            + "int ?, int ?, int flags, int root)",
        "elan_groupGetStats(ELAN_GROUP*, ELAN_GROUPSTATS*)",
        // §2.10 Locks
        "elan_lockInit(ELAN_STATE*, ELAN_LOCK*, ELAN_LOCK_NORMAL)",
        "elan_lockLock(state, ELAN_LOCK *remoteLock, ELAN_LOCK_BUSY)",
        "elan_lockUnLock(state, ELAN_LOCK*)",
        "elan_atomicInit(state, ELAN_QUEUE*, 16, 0)",
        // §2.11 = §1.4.2 with the elan_ prefix
        "elan_nullcap(ELAN_CAPABILITY*)",
        "elan_capability_string(cap, char *buf) -> char*",
        "elan_nvps(cap) -> int",
        "elan_nlocal(int relNode, cap) -> int",
        "elan_maxlocal(cap) -> int",
        "elan_localvps(relNode, cap, int *vps, int n)",
        "elan_vp2location(int vp, cap) -> ELAN_LOCATION",
        "elan_location2vp(ELAN_LOCATION, cap) -> int",
        "elan_nrails(cap) -> int",
        "elan_rails(cap, int *devs) -> int",
    };

    static final Map<String, String> NOT_PROVIDED = Map.of(
        "elan_init", "the Elan4 start-up of one OMPI-PTL test; elan_baseInit is the start-up",
        "elan_addMapping", "the catalog has its name only",
        "elan_groupGetStats", "ELAN_GROUPSTATS is not emulated (ElanBase.groupStats() has the counters)",
        "elan_atomicInit", "seen only behind an ARMCI option; its arguments' meaning is unknown");

    @Test
    void shouldFollowTheCatalogSignatureForSignature()
    {
        // §2.5: "sdram" here is an SDRAM handle, not ctx->sdram as in §1.4
        FacadeSignatures.assertMatchesCatalog(Elanlib.class, FacadeSignatures.parse(Map.of("sdram", "sdramaddr_t"), CATALOG),
            NOT_PROVIDED, Set.of());
    }
}
