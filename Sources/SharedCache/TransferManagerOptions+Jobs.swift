import TransferEngine

extension TransferManager.Options {
    /// Keeps the transfer jobs in `cache`'s database, as the `strata` command line does: a copy or
    /// sync interrupted part-way is taken up by its next run without sending its finished files
    /// again, a digest computed from a source file is computed once per version of the file, and
    /// the folders a finished run found the same are not listed again while their etags hold.
    ///
    /// Without it (the default) nothing is kept, and every run plans from the listings alone.
    public mutating func keepJobs(in cache: CacheStore) {
        jobStore = SQLiteTransferJobStore(cache: cache)
    }
}
