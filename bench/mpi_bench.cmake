# The MPI transport benchmark: a plain MPI program (not Google Benchmark: it runs under mpirun -np 2),
# driven by bench/mpi_bench.sh. Named without the _bench suffix so bench/run.sh does not start it alone.
add_executable(mpi_transport ${CMAKE_CURRENT_SOURCE_DIR}/mpi_transport.cpp)
target_link_libraries(mpi_transport PRIVATE ptodist_runtime)
target_compile_definitions(mpi_transport PRIVATE OMPI_SKIP_MPICXX=1 MPICH_SKIP_MPICXX=1)
# MPI's own collectives, timed like bench/collectives.py's programs (bench/collectives_bench.sh).
add_executable(mpi_collectives ${CMAKE_CURRENT_SOURCE_DIR}/mpi_collectives.cpp)
target_link_libraries(mpi_collectives PRIVATE MPI::MPI_C)
target_compile_definitions(mpi_collectives PRIVATE OMPI_SKIP_MPICXX=1 MPICH_SKIP_MPICXX=1)
