# kexp plot; run `gnuplot test_rmse_vs_kernel.degree.gp` here to redraw test_rmse_vs_kernel.degree.svg
set terminal svg size 860,576 dynamic noenhanced font 'sans,11' background rgb 'white'
set output 'test_rmse_vs_kernel.degree.svg'
set title 'test_rmse against kernel.degree'
set xlabel 'kernel.degree'
set ylabel 'test_rmse'
set grid
set format x '%g'
set format y '%g'
set bmargin 6
set label 100 'Each point: the cell with the lowest test_rmse over dataset.n, dataset.d.' at screen 0.01, screen 0.0521 left font ',9'
set label 101 'Points: mean over up to 2 runs (the repeats); bars: ± one standard deviation.' at screen 0.01, screen 0.0208 left font ',9'
set key above maxcols 2 width 2
set autoscale fix
set offsets graph 0.05, graph 0.05, graph 0.08, graph 0.08
$line0 << EOD
2 0.38318664038953065 0.3493849073545986 0.4169883734244627
3 0.11847844536085234 0.11612790180146443 0.12082898892024024
4 0.11247688609165715 0.1111668896754448 0.1137868825078695
EOD
$line1 << EOD
2 0.38318664038953065 0.3493849073545986 0.4169883734244627
3 0.11847844536085232 0.11612790180146446 0.12082898892024019
4 0.11247688609165714 0.11116688967544482 0.11378688250786946
EOD
$line2 << EOD
2 0.3832404063681878 0.3490756844082168 0.4174051283281588
3 0.09871380823222867 0.09742239944900244 0.1000052170154549
4 0.1007680210173226 0.09898597011564121 0.10255007191900399
EOD
$line3 << EOD
2 0.3832404063674141 0.34907568440592873 0.4174051283288994
3 0.09871380823192133 0.09742239944971912 0.10000521701412354
4 0.10076802101732106 0.09898597011571941 0.10255007191892271
EOD
plot $line0 using 1:2:3:4 with yerrorlines lw 1.5 pt 4 ps 0.8 dashtype 1 lc rgb '#0072B2' title 'polynomial · primal_gd (primal)', \
     $line1 using 1:2:3:4 with yerrorlines lw 1.5 pt 6 ps 0.8 dashtype 1 lc rgb '#D55E00' title 'polynomial · dual_gd (dual)', \
     $line2 using 1:2:3:4 with yerrorlines lw 1.5 pt 8 ps 0.8 dashtype 1 lc rgb '#009E73' title 'polynomial · primal_ridge (primal)', \
     $line3 using 1:2:3:4 with yerrorlines lw 1.5 pt 10 ps 0.8 dashtype 1 lc rgb '#CC79A7' title 'polynomial · kernel_ridge (dual)'
